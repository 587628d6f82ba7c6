# A sharded gate (plan + gate --shard each + merge) and one machine's gate
# of the same revisions give the same cells and the same verdicts for a
# matrix with every kind of line: per-patch, cells on two targets,
# per-patch-timing and a revision-regression policy (stand-in make and
# QEMU; demo/v2 is 16.7 % slower than demo/v1, beyond max=10). The
# per-patch-timing cell runs on the shard of its target; the
# revision-regression cell on no shard: the merge runs it over every
# shard's timing with the plan's policy and fails v2 as one machine does.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
skip_unless_installed jq
repo=$TMP/toy
toy_revision_tree
make_revision "$TMP/series/demo/v1" 1 fast
make_revision "$TMP/series/demo/v2" 2 careful
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/other.target"
printf 'per-patch: toy\ncell: toy demo setups=fsdax-dev,devdax-mem\ncell: other demo setups=fsdax-dev\nper-patch-timing: toy demo setups=fsdax-dev\nrevision-regression: max=10\n' \
  >"$TMP/configs/matrices/every.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
inputs=(--configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo" --base "$base"
        --accel tcg --matrix every --series "$TMP/series/demo/v1" --series "$TMP/series/demo/v2")
judged() {  # judged OUT JSON: the cells (series, cell, status) and the verdict lines
  jq -r '.cells[] | "\(.series) | \(.cell) | \(.status)"' "$2"
  grep -E '^  (verdict:|expected failure holds|FAILED|ERROR)|^gate: ' "$1"
}

expect_exit 1 "$KSERIES" gate --workdir "$TMP/wd" "${inputs[@]}" --json "$TMP/single.json"
judged "$TMP/out" "$TMP/single.json" >"$TMP/single.judged"
for cell in "per-patch toy" "per-patch-timing toy demo" "revision-regression"; do
  for series in demo/v1 demo/v2; do
    grep -q "^$series | $cell | " "$TMP/single.judged" || fail "one gate has no $series $cell: $(cat "$TMP/single.judged")"
  done
done
grep -q "^demo/v2 | revision-regression | fail$" "$TMP/single.judged" || fail "v2 did not fail the policy"

expect_exit 0 "$KSERIES" plan --configs "$TMP/configs" --testcases "$TMP/cases" --matrix every \
  --shards 3 --series "$TMP/series/demo/v1" --series "$TMP/series/demo/v2" --json "$TMP/plan.json"
jq -e '.cells | index("per-patch-timing toy demo") and index("revision-regression")' "$TMP/plan.json" \
  >/dev/null || fail "the plan lacks a cell: $(jq -c .cells "$TMP/plan.json")"
jq -e '[.jobs[].cells[]] | index("revision-regression") | not' "$TMP/plan.json" >/dev/null \
  || fail "a shard's job holds revision-regression"
jq -e '.revision_regression.max_percent == 10' "$TMP/plan.json" >/dev/null || fail "the plan has no policy"
dirs=()
for i in 1 2 3; do
  expect_exit "0|1" "$KSERIES" gate --workdir "$TMP/wd$i" "${inputs[@]}" --shard "$i/3"
  dirs+=("$(sed -n 's/^run directory //p' "$TMP/out")")
done
expect_exit 1 "$KSERIES" merge --workdir "$TMP/wdm" "${dirs[@]}" --json "$TMP/merged.json"
judged "$TMP/out" "$TMP/merged.json" >"$TMP/merged.judged"
diff -u "$TMP/single.judged" "$TMP/merged.judged" \
  || fail "3 shards merged are not judged as one machine judges"
echo "PASS"
