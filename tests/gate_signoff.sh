# The signoff stage, on with the matrix line `signoff: author`: demo/signed
# (its patch signed off by its author) passes the cell "signoff"; in
# demo/unsigned, patch 1/2 is signed off only by its committer and 2/2 not
# at all, and the cell fails naming both and the trailer each lacks. The
# same cells and verdicts in two shards and their merge, the cells reused
# by --resume, JUnit valid against the schema, and a malformed line refused at load with its FILE:LINE.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/junit_lib.bash"
skip_unless_installed jq
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
author="Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
make_series() {  # make_series NAME [COMMIT-OPTIONS FILE]...
  local name=$1; shift
  git -C "$repo" checkout -q -b "$name" "$base"
  while [ $# -gt 0 ]; do
    echo "int $2;" >"$repo/$2.c" && git -C "$repo" add -A
    eval "git -C \"\$repo\" commit -q -m \"demo: add $2\" $1"
    shift 2
  done
  git -C "$repo" format-patch -q -o "$TMP/series/demo/$name" --base="$base" "$base..$name"
  (cd "$TMP/series/demo/$name" && ls *.patch >series)
  git -C "$repo" checkout -q main
}
make_series signed '-m "$author"' b
make_series unsigned '-s' c '' d
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: none\n' >"$TMP/configs/targets/toy.target"
printf 'per-patch: toy\nsignoff: author\n' >"$TMP/configs/matrices/dco.matrix"
common=(--configs "$TMP/configs" --tree "$repo" --base "$base" --accel tcg --matrix dco)
both=(--series "$TMP/series/demo/signed" --series "$TMP/series/demo/unsigned")

expect_exit 1 "$KSERIES" gate "${common[@]}" --workdir "$TMP/wd" "${both[@]}" --junit "$TMP/g.xml"
expect_grep "^  pass  signoff: every patch signed off by its author (1 patch(es)) (" "$TMP/out"
expect_grep "^  fail  signoff: 2 of 2 patch(es) not signed off by the author: patch 1/2 'demo: add c'" "$TMP/out"
[ "$(grep -c '^  verdict: FAIL' "$TMP/out")" = 1 ] || fail "not exactly one series failed"
expect_grep "^gate: FAIL$" "$TMP/out"
run=$(sed -n 's/^run directory //p' "$TMP/out")
# JUnit: a testcase per cell, the failing one the signoff cell.
check_junit "$TMP/g.xml" "tests=8 failures=1 errors=0 skipped=2"
[ "$(xmllint --xpath 'string(//testcase[failure]/@name)' "$TMP/g.xml")" = signoff ] \
  || fail "the failing testcase is not the signoff cell"
# The cell's detail has every patch and the trailer it lacks.
jq -r '.cells[] | select(.cell == "signoff" and .series == "unsigned") | .detail' "$run/gate.json" \
  >"$TMP/detail"
expect_grep "^patch 1/2 'demo: add c' (.*): no '$author' (its author)$" "$TMP/detail"
expect_grep "^patch 2/2 'demo: add d' (.*): no '$author' (its author)$" "$TMP/detail"
grep -E '^  (pass|fail)  signoff|^  verdict|^gate: ' "$TMP/out" >"$TMP/single.judged"

# Two shards and their merge: the plan has the cell (the series job), one
# shard runs it, the merge judges as the single gate did.
expect_exit 0 "$KSERIES" plan --configs "$TMP/configs" --matrix dco --shards 2 "${both[@]}"
expect_grep "signoff" "$TMP/out"
dirs=()
for i in 1 2; do
  expect_exit "0|1" "$KSERIES" gate "${common[@]}" --workdir "$TMP/wd$i" "${both[@]}" --shard "$i/2"
  dirs+=("$(sed -n 's/^run directory //p' "$TMP/out")")
done
expect_exit 1 "$KSERIES" merge --workdir "$TMP/wdm" "${dirs[@]}"
grep -E '^  (pass|fail)  signoff|^  verdict|^gate: ' "$TMP/out" >"$TMP/merged.judged"
diff -u "$TMP/single.judged" "$TMP/merged.judged" || fail "the merge did not judge as one gate"

# --resume: the signoff cells are the same work, taken from the first run.
expect_exit 1 "$KSERIES" gate "${common[@]}" --workdir "$TMP/wd" "${both[@]}" --resume "$run"
# (apply runs again on every gate: the cells after it need the tree.)
expect_grep "^resumed: 6 cell(s) reused, 2 run" "$TMP/out"
expect_grep "gate signed: signoff: pass (reused from the resumed run)" "$TMP/err"
expect_grep "gate unsigned: signoff: fail (reused from the resumed run)" "$TMP/err"
grep -E '^  (pass|fail)  signoff|^  verdict|^gate: ' "$TMP/out" >"$TMP/resumed.judged"
diff -u "$TMP/single.judged" "$TMP/resumed.judged" || fail "the resumed gate judged otherwise"

# A line the stage does not take is refused before any series is applied.
printf 'per-patch: toy\nsignoff: everyone\n' >"$TMP/configs/matrices/typo.matrix"
expect_exit 2 "$KSERIES" gate "${common[@]/dco/typo}" --workdir "$TMP/wd" "${both[@]}"
expect_grep "typo.matrix:2: 'signoff: author' (every patch signed off by its author)" "$TMP/err"
echo "PASS"
