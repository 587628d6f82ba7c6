# ci/slurm-gate on a local Slurm cluster (ci/slurm-local: slurmctld, slurmd
# and munged in a temporary directory, free ports): the toy gate of
# gate_toy.bash submitted as a job array of 3 `kseries gate --shard I/3`
# tasks, each on its own work directory, and a merge job depending on the
# array (afterany). The merged verdict and cells equal one machine's gate.
# Needs root (slurmd) and Debian's slurm-wlm and munge, else skipped.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH:/usr/sbin"
source "$(dirname "$0")/gate_toy.bash"
for tool in slurmctld slurmd munged sbatch; do
  command -v $tool >/dev/null || { echo "skipped: $tool is not installed (slurm-wlm, munge)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "skipped: slurmd needs root"; exit 77; }
trap '"$SRC/ci/slurm-local" stop "$TMP/slurm"; rm -rf "$TMP"' EXIT
eval "$("$SRC/ci/slurm-local" start "$TMP/slurm")"
[ -n "${SLURM_CONF:-}" ] || fail "ci/slurm-local did not start a cluster"

expect_exit 0 "$KSERIES" gate --workdir "$TMP/single" "${tree[@]}" --matrix toy "${series[@]}" \
  --json "$TMP/single.json"
what_was_judged "$TMP/out" "$TMP/single.json" >"$TMP/single.judged"

expect_exit 0 "$SRC/ci/slurm-gate" --kseries "$KSERIES" --wait "$TMP/sg" 3 -- \
  "${tree[@]}" --matrix toy "${series[@]}"
expect_grep "^merged 3 shard(s) of plan" "$TMP/out"
for i in 1 2 3; do
  expect_grep "^shard $i/3 of plan" "$TMP/sg/shard-$i.out"
done
what_was_judged "$TMP/sg/merge.out" "$TMP/sg/gate.json" >"$TMP/slurm.judged"
diff -u "$TMP/single.judged" "$TMP/slurm.judged" \
  || fail "the Slurm job array's merged verdict differs from one machine's"
[ -s "$TMP/sg/junit.xml" ] || fail "no merged JUnit file"
echo "PASS"
