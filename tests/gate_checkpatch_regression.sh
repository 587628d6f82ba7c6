# Checkpatch errors a revision adds against its predecessor are a finding:
# demo/v2 adds one ERROR (a stand-in checkpatch.pl: one SPACING error per
# added "BADSTYLE") that demo/v1 does not have. Without a policy v2 passes
# with the finding on its verdict line, by type and patch; with the
# matrix's `checkpatch: max-new-errors=0` it fails in the cell
# revision-regression; when v2's `upstream` file names that patch as an
# upstream posting as posted, the error is the author's and v2 passes with
# the warning; two shards and their merge judge as one gate does. The
# checkpatch cell names the types and patches.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/matrices"
toy_kernel "$repo"
cat >"$repo/scripts/checkpatch.pl" <<'CP'
my $f = $ARGV[-1]; open(my $h, '<', $f) or die; my $n = 0;
while (<$h>) { $n++; print "$f:$n: ERROR:SPACING: BADSTYLE is bad style\n" if /^\+.*BADSTYLE/; }
exit 0;
CP
seq 1 30 | sed 's/^/int a/; s/$/;/' >"$repo/a.c"
echo fast >"$repo/speed"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
make_revision() {  # make_revision DIR VERSION LINE
  git -C "$repo" checkout -q -B "work$2" "$base"
  sed -i s/a20/A20/ "$repo/a.c" && git -C "$repo" commit -q -am "demo: rename a20"
  echo "$3" >>"$repo/a.c" && git -C "$repo" commit -q -am "demo: add a line"
  git -C "$repo" format-patch -q -v"$2" -o "$1" --base="$base" "$base..work$2"
  (cd "$1" && ls *.patch >series)
  git -C "$repo" checkout -q main
}
make_revision "$TMP/series/demo/v1" 1 "int b;"
make_revision "$TMP/series/demo/v2" 2 "int b; /* BADSTYLE */"
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'cell: toy demo setups=fsdax-dev\n' >"$TMP/configs/matrices/toy.matrix"
printf 'cell: toy demo setups=fsdax-dev\ncheckpatch: max-new-errors=0\n' >"$TMP/configs/matrices/strict.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --accel tcg)
revisions=(--series "$TMP/series/demo/v1" --series "$TMP/series/demo/v2")
finding="checkpatch: +1 error(s) against demo/v1: SPACING +1 (2/2)"

# No policy: PASS; the checkpatch cell names the type and patch, the
# verdict line the finding.
expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix toy "${revisions[@]}"
expect_grep "^  pass  checkpatch: 1 error(s), 0 warning(s) from the tree's checkpatch.pl (reported, not fatal); errors: SPACING 1 (2/2)" "$TMP/out"
expect_grep "^  verdict: PASS, warning: $finding; 1 the port's$" "$TMP/out"
[ "$(grep -c "warning: checkpatch" "$TMP/out")" = 1 ] || fail "not exactly one revision has the finding"
expect_grep "^gate: PASS$" "$TMP/out"

# max-new-errors=0: v2 fails in revision-regression; v1 passes.
expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix strict "${revisions[@]}"
expect_grep "^  fail  revision-regression: $finding; 1 the port's (policy: checkpatch max-new-errors=0)" "$TMP/out"
[ "$(grep -c '^  verdict: FAIL' "$TMP/out")" = 1 ] || fail "not exactly one revision failed"
expect_grep "^gate: FAIL$" "$TMP/out"
grep -E '^  verdict|^gate: ' "$TMP/out" >"$TMP/single.judged"
# The same gate in two shards and their merge: the plan carries the policy
# and the merge fails v2 as one machine does.
expect_exit 0 "$KSERIES" plan --configs "$TMP/configs" --testcases "$TMP/cases" --matrix strict \
  --shards 2 "${revisions[@]}" --json "$TMP/plan.json"
grep -Eq '"max_new_errors": ?0' "$TMP/plan.json" || fail "the plan has no checkpatch policy"
dirs=()
for i in 1 2; do
  expect_exit "0|1" "$KSERIES" gate "${common[@]:2}" --workdir "$TMP/wd$i" --matrix strict \
    "${revisions[@]}" --shard "$i/2"
  dirs+=("$(sed -n 's/^run directory //p' "$TMP/out")")
done
expect_exit 1 "$KSERIES" merge --workdir "$TMP/wdm" "${dirs[@]}"
expect_grep "^  fail  revision-regression: $finding; 1 the port's (policy: checkpatch max-new-errors=0)" "$TMP/out"
grep -E '^  verdict|^gate: ' "$TMP/out" >"$TMP/merged.judged"
diff -u "$TMP/single.judged" "$TMP/merged.judged" || fail "the merge did not judge as one gate"

# v2's 2/2 is an upstream posting as posted: the error is the author's, so
# the strict matrix passes v2 with the finding as a warning.
git -C "$repo" show work2 >"$TMP/series/demo/v2/posting.mbox"
echo "2 posting.mbox  the upstream posting" >"$TMP/series/demo/v2/upstream"
expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix strict "${revisions[@]}"
expect_grep "; 1 of the 1 error(s) in patches posted upstream as they are (2/2), 0 the port's" "$TMP/out"
expect_grep "^  verdict: PASS, warning: ${finding%)}, 1 upstream's as posted); 0 the port's$" "$TMP/out"
expect_grep "^gate: PASS$" "$TMP/out"

# A claim that does not hold (2/2 changed since it was posted) is said so
# and the error is the port's again.
sed -i 's/^+int b; \/\* BADSTYLE \*\//+int c; \/* BADSTYLE *\//' "$TMP/series/demo/v2/"*0002*.patch
expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix strict "${revisions[@]}"
expect_grep "^  fail  revision-regression: checkpatch: +1 error(s) against demo/v1: SPACING +1 (2/2); 1 the port's" "$TMP/out"
echo "PASS"
