# A revision slower than its predecessor is a finding: demo/v1 is fast, its
# v2 a correct but slower port ("careful": still faster than the base, so
# every cell passes, +16.7 % against v1). Without a policy v2 passes with a
# warning on its verdict line naming cell, setup and figure; with
# `revision-regression: max=10` v2 fails in the cell revision-regression;
# with max=50 it passes with the warning. A failing cell's directory holds
# reproduce.sh, and running it rebuilds and reboots that cell (here: a
# revision slower than the base, which fails again).
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
toy_revision_tree
make_revision "$TMP/series/demo/v1" 1 fast
make_revision "$TMP/series/demo/v2" 2 careful
make_revision "$TMP/series/slow/v1" 1 slow
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'cell: toy demo setups=fsdax-dev,devdax-mem\n' >"$TMP/configs/matrices/toy.matrix"
printf 'cell: toy demo setups=fsdax-dev,devdax-mem\nrevision-regression: max=10\n' >"$TMP/configs/matrices/strict.matrix"
printf 'cell: toy demo setups=fsdax-dev,devdax-mem\nrevision-regression: max=50 memmap_init_ns\n' >"$TMP/configs/matrices/lenient.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --accel tcg)
revisions=(--series "$TMP/series/demo/v1" --series "$TMP/series/demo/v2")

# No policy: PASS, and the verdict line says which cell, setup and figure.
expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix toy "${revisions[@]}"
expect_grep "^    toy demo fsdax-dev memmap_init_[a-z]*: +16\.[0-9]*% .* slower" "$TMP/out"
expect_grep "^  verdict: PASS, warning: toy demo [a-z-]* memmap_init_[a-z]* +16\.[0-9] % \[.*\] slower than demo/v1" "$TMP/out"
grep "^  verdict: PASS" "$TMP/out" | head -1 | grep -q warning && fail "v1 (the first revision) got a warning"
expect_grep "^gate: PASS$" "$TMP/out"
run=$(sed -n 's/^run directory //p' "$TMP/out")
jq -e '.series[] | select(.series == "demo/v2") | .verdict.warnings | length > 0' "$run/gate.json" >/dev/null \
  || fail "gate.json has no warnings for demo/v2"

# max=10 %: v2 fails in the cell revision-regression; v1 still passes.
expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix strict "${revisions[@]}"
expect_grep "^  fail  revision-regression: toy demo [a-z-]* memmap_init_[a-z]* +16\.[0-9] % .* slower than demo/v1 (policy: max=10 %)" "$TMP/out"
expect_grep "^  FAILED revision-regression: " "$TMP/out"
expect_grep "^gate: FAIL$" "$TMP/out"
[ "$(grep -c '^  verdict: FAIL' "$TMP/out")" = 1 ] || fail "not exactly one revision failed"
run=$(sed -n 's/^run directory //p' "$TMP/out")
script=$(find "$run/cells" -path '*revision-regression*' -name reproduce.sh)
[ -x "$script" ] || fail "no reproduce.sh for the revision-regression cell"
grep -q -- "--against $TMP/series/demo/v1" "$script" || fail "reproduce.sh does not boot against v1: $(cat "$script")"

# max=50 % on memmap_init_ns: within it, a warning again.
expect_exit 0 "$KSERIES" gate "${common[@]}" --matrix lenient "${revisions[@]}"
expect_grep "^  verdict: PASS, warning: .* slower than demo/v1" "$TMP/out"

# A cell that fails against the base: reproduce.sh beside its logs, named in
# the report, from public inputs only; run, it fails the same way.
expect_exit 1 "$KSERIES" gate "${common[@]}" --matrix toy --series "$TMP/series/slow/v1"
expect_grep "^  fail  toy demo: .*slower" "$TMP/out"
expect_grep "^        reproduce: sh .*/cells/slow-v1-toy-demo/reproduce.sh$" "$TMP/out"
script=$(sed -n 's/^        reproduce: sh //p' "$TMP/out")
grep -q "$TMP/wd" "$script" && fail "reproduce.sh names the gate's work directory: $(cat "$script")"
expect_grep "^kseries boot .* --target toy --case demo --series $TMP/series/slow/v1 --compare-base --setups fsdax-dev,devdax-mem" "$script"
mkdir -p "$TMP/bin" && ln -s "$(realpath "$KSERIES")" "$TMP/bin/kseries"
expect_exit 1 env PATH="$TMP/bin:$PATH" KSERIES_WORKDIR="$TMP/wd-reproduce" sh "$script"
expect_grep "slower" "$TMP/out"
[ -d "$TMP/wd-reproduce/runs" ] || fail "reproduce.sh did not use KSERIES_WORKDIR"
echo "PASS"
