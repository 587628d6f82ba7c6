# kseries gate with stand-in make and QEMU: each series through apply,
# checkpatch, per-patch builds and the matrix's cells; a good revision
# passes, a known-bad one is judged by its expectations (an expected failure
# that does not happen is an error), a build break is caught per patch, a
# guest that dies fails its cell, and --resume reuses finished cells.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
# The tree's own style checker (a stand-in): one warning per added "TODO".
cat >"$repo/scripts/checkpatch.pl" <<'CP'
my $f = $ARGV[-1]; open(my $h, '<', $f) or die; my $n = 0;
while (<$h>) { $n++; print "$f:$n: WARNING:TODO: a TODO was added\n" if /^\+.*TODO/; }
exit 0;
CP
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
make_series good speed fast b.c "int b; /* TODO */"
make_series slow speed slow
make_series breaks b.c "BROKEN" b.c "int b;" speed fast
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'fragments: a\nfeatures: none\n' >"$TMP/configs/targets/nopmem.target"
printf 'per-patch: toy\ncell: toy demo setups=fsdax-dev,devdax-mem\ncell: nopmem demo\n' \
  >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --matrix toy)

# A good revision passes: every cell, its checkpatch warning reported.
expect_exit 0 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good" --junit "$TMP/g.xml"
expect_grep "^series good$" "$TMP/out"
expect_grep "pass  checkpatch: 0 error(s), 1 warning(s)" "$TMP/out"
expect_grep "pass  per-patch toy: every patch builds (2)" "$TMP/out"
expect_grep "pass  toy demo: " "$TMP/out"
expect_grep "skip  nopmem demo: target nopmem lacks 'pmem'" "$TMP/out"
expect_grep "verdict: PASS" "$TMP/out"
expect_grep "^gate: PASS" "$TMP/out"
expect_grep "^time: apply" "$TMP/out"
expect_grep 'classname="gate.good" name="toy demo"' "$TMP/g.xml"
good_run=$(sed -n 's/^run directory //p' "$TMP/out")
[ -f "$good_run/gate.json" ] || fail "no gate.json in $good_run"

# Known-bad revisions without expectations fail the gate, naming the cell.
expect_exit 1 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/slow"
expect_grep "FAILED toy demo: .*slower" "$TMP/out"
expect_exit 1 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/breaks"
expect_grep "fail  per-patch toy: patch 1/3 'demo: b.c for breaks' does not build (1 of 3 patches break the build)" "$TMP/out"

# With their expectations, the same revisions are caught for the right
# reason: the gate passes with the good one beside them.
echo "fail: toy demo: slower" >"$TMP/series/demo/slow/expect"
echo "fail: per-patch toy: patch 1/3" >"$TMP/series/demo/breaks/expect"
expect_exit 0 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good" \
  --series "$TMP/series/demo/slow" --series "$TMP/series/demo/breaks"
expect_grep "expected failure holds: toy demo: slower" "$TMP/out"
expect_grep "expected failure holds: per-patch toy: patch 1/3" "$TMP/out"
expect_grep "verdict: EXPECTED" "$TMP/out"
expect_grep "^gate: PASS" "$TMP/out"

# An expectation that does not hold is an error: the check did not catch it.
echo "fail: toy demo: slower" >"$TMP/series/demo/good/expect"
expect_exit 1 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good"
expect_grep "ERROR toy demo was expected to fail with 'slower' but is pass" "$TMP/out"
rm "$TMP/series/demo/good/expect"

# A guest whose case dies fails its cell (QEMU exits 0, the guest powers off).
FAKE_QEMU_MODE=die expect_exit 1 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good"
expect_grep "FAILED toy demo: .*exited with rc=3" "$TMP/out"

# --resume: the finished cells of the first run are reused, nothing boots.
expect_exit 0 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good" --resume "$good_run"
expect_grep "^resumed: 4 cell(s) reused, 1 run" "$TMP/out"
grep -q "boot 1/1" "$TMP/err" && fail "a resumed gate booted again"
# --resume reuses a cell only when it is the same work: the same series
# name whose patches now break the build runs again and fails (it said
# PASS: cells were matched by series and cell name only).
mv "$TMP/series/demo/good" "$TMP/good-saved"
cp -r "$TMP/series/demo/breaks" "$TMP/series/demo/good" && rm -f "$TMP/series/demo/good/expect"
expect_exit 1 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good" --resume "$good_run"
expect_grep "per-patch toy: not reused from the resumed run" "$TMP/err"
expect_grep "fail  per-patch toy: patch 1/3" "$TMP/out"
rm -r "$TMP/series/demo/good" && mv "$TMP/good-saved" "$TMP/series/demo/good"
# Interrupted (SIGINT while a guest hangs): QEMU's group is killed, the
# finished cells stay in gate.json, exit 130; --resume finishes the rest.
set +e
FAKE_QEMU_MODE=hang "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good" >"$TMP/out" 2>"$TMP/err" &
gate_pid=$!
# QEMU itself must run: "boot 1/1" is printed just before it starts.
for _ in $(seq 100); do pgrep -f "qemu-system-x86_64.*$TMP" >/dev/null && break; sleep 0.1; done
kill -INT $gate_pid
wait $gate_pid
got=$?
set -e
[ "$got" = 130 ] || { cat "$TMP/err"; fail "an interrupted gate exited $got, not 130"; }
expect_grep "^gate: INTERRUPTED after 4 cell(s)" "$TMP/out"
expect_grep "error  toy demo: interrupted while running qemu-system-x86_64" "$TMP/out"
sleep 0.5
pgrep -f "qemu-system-x86_64.*$TMP" >/dev/null && fail "a QEMU survived the interrupt"
cut_run=$(sed -n 's/^run directory //p' "$TMP/out")
expect_exit 0 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good" --resume "$cut_run"
expect_grep "^resumed: 2 cell(s) reused, 3 run" "$TMP/out"
expect_grep "^gate: PASS" "$TMP/out"

expect_exit 2 "$KSERIES" gate "${common[@]}" --series "$TMP/series/demo/good" --resume "$TMP"
expect_grep "no gate.json" "$TMP/err"
expect_exit 2 "$KSERIES" gate "${common[@]}"
expect_grep "give at least one --series" "$TMP/err"
echo "PASS"
