# ci/slurm-gate on a local Slurm cluster (ci/slurm-local: slurmctld, slurmd
# and munged in a temporary directory, free ports): the toy gate of
# gate_toy.bash submitted as a job array of 3 `kseries gate --shard I/3`
# tasks, each on its own work directory, and a merge job depending on the
# array (afterany). The merged verdict and cells equal one machine's gate,
# and the merge leaves a gate's reports. The cluster (its daemons and any
# job step) is stopped however the scenario ends. Needs root (slurmd) and
# Debian's slurm-wlm and munge (ci/install-deps), else skipped.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH:/usr/sbin"
source "$(dirname "$0")/gate_toy.bash"
[ "$(id -u)" = 0 ] || { echo "skipped: slurmd runs as root, this is uid $(id -u)"; exit 77; }
skip_unless_installed slurmctld slurmd munged sbatch sinfo squeue scancel
at_exit "$(printf '%q stop %q' "$SRC/ci/slurm-local" "$TMP/slurm")"
expect_exit 0 "$SRC/ci/slurm-local" start "$TMP/slurm"
eval "$(cat "$TMP/out")"
[ -n "${SLURM_CONF:-}" ] || fail "ci/slurm-local did not start a cluster: $(cat "$TMP/out" "$TMP/err")"

expect_exit 0 "$KSERIES" gate --workdir "$TMP/single" "${tree[@]}" --matrix toy "${series[@]}" \
  --json "$TMP/single.json"
what_was_judged "$TMP/out" "$TMP/single.json" >"$TMP/single.judged"

# Bounded: a job that never runs fails the scenario, not the CI budget.
expect_exit 0 timeout 300 "$SRC/ci/slurm-gate" --kseries "$KSERIES" --wait "$TMP/sg" 3 -- \
  "${tree[@]}" --matrix toy "${series[@]}"
expect_grep "^merged 3 shard(s) of plan" "$TMP/out"
for i in 1 2 3; do
  expect_grep "^shard $i/3 of plan" "$TMP/sg/shard-$i.out"
done
what_was_judged "$TMP/sg/merge.out" "$TMP/sg/gate.json" >"$TMP/slurm.judged"
diff -u "$TMP/single.judged" "$TMP/slurm.judged" \
  || fail "the Slurm job array's merged verdict differs from one machine's"
for f in junit.xml report.html kcidb.json; do
  [ -s "$TMP/sg/$f" ] || fail "the merge job left no $f"
done
# Nothing of the cluster's jobs is left in the queue.
[ -z "$(squeue -h)" ] || fail "jobs left in the queue: $(squeue)"
echo "PASS"
