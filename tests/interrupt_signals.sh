# SIGINT and SIGTERM: kseries stops at once, kills what it runs, writes what
# the run has and exits 130 (SIGINT) or 143 (SIGTERM) -- also when the signal
# comes while no child runs (then SIGTERM used to kill it on the spot without
# a word or a report, and SIGINT, ignored in a script's background job, did
# nothing at all). "No child runs" is made certain with a FIFO: kseries
# blocks reading its input (an mbox) in-process until the test writes it.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }

# wait_for PATTERN FILE: up to 10 s.
wait_for() {
  for _ in $(seq 100); do grep -q -- "$1" "$2" 2>/dev/null && return 0; sleep 0.1; done
  cat "$2"; fail "no '$1' in $2 after 10 s"
}
# finish PID WANT: waits for kseries and checks its exit status.
finish() {
  set +e
  wait "$1"
  local got=$?
  set -e
  [ "$got" = "$2" ] || { cat "$TMP/out" "$TMP/err"; fail "kseries exited $got, not $2"; }
}
# fifo_mbox NAME: a FIFO kseries will read an mbox from.
fifo_mbox() { rm -f "$TMP/$1.mbox"; mkfifo "$TMP/$1.mbox"; }

# --- kseries apply: no child ever runs (libgit2 in-process).
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q --stdout --base="$base" HEAD~2 >"$TMP/toy.mbox"
for sig in INT TERM; do
  fifo_mbox "apply-$sig"
  "$KSERIES" apply --workdir "$TMP/wd" --tree "$TMP/toy" --base "$base" \
    --series "$TMP/apply-$sig.mbox" >"$TMP/out" 2>"$TMP/err" &
  pid=$!
  exec 3>"$TMP/apply-$sig.mbox"  # returns once kseries opened the FIFO: it now waits in read()
  kill -$sig $pid
  sleep 0.3
  # The signal cuts kseries' read (no SA_RESTART): it may have closed the
  # FIFO already, and the write then fails (SIGPIPE); either is fine.
  cat "$TMP/toy.mbox" >&3 2>/dev/null || true
  exec 3>&-
  finish $pid "$([ $sig = INT ] && echo 130 || echo 143)"
  expect_grep "error: interrupted (SIG$sig) \(before applying\|reading $TMP/apply-$sig.mbox\)" "$TMP/err"
  git --git-dir "$TMP/wd/repo.git" show-ref | grep -q "apply-$sig" &&
    fail "an interrupted apply created a branch"
done

# --- kseries gate with stand-in make and QEMU.
repo=$TMP/kernel
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" \
  "$TMP/configs/matrices" "$TMP/cases/demo" "$TMP/cases/lib"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
kbase=$(git -C "$repo" rev-parse HEAD)
echo "int b;" >"$repo/b.c" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: add b"
git -C "$repo" format-patch -q -o "$TMP/series/demo/good" --base="$kbase" "$kbase..HEAD"
git -C "$repo" format-patch -q --stdout --base="$kbase" "$kbase..HEAD" >"$TMP/demo.mbox"
(cd "$TMP/series/demo/good" && ls *.patch >series)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
printf 'per-patch: toy\ncell: toy demo setups=fsdax-dev\n' >"$TMP/configs/matrices/toy.matrix"
toy_demo_case
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$kbase" --matrix toy)

# SIGINT between children: the first series is gated, kseries waits for the
# second one's mbox; it stops before applying it and reports the cells so far.
fifo_mbox second
"$KSERIES" gate --workdir "$TMP/wd-gate" "${common[@]}" --series "$TMP/series/demo/good" \
  --series "$TMP/second.mbox" \
  >"$TMP/out" 2>"$TMP/err" &
pid=$!
exec 3>"$TMP/second.mbox"
pgrep -P $pid >/dev/null && fail "kseries runs a child while it reads the mbox"
kill -INT $pid
sleep 0.3
cat "$TMP/demo.mbox" >&3 2>/dev/null || true
exec 3>&-
finish $pid 130
expect_grep "^gate: INTERRUPTED after 4 cell(s)" "$TMP/out"
expect_grep "pass  toy demo: " "$TMP/out"
expect_grep "interrupted (SIGINT) \(before applying\|reading $TMP/second.mbox\)" "$TMP/err"
run=$(sed -n 's/^run directory //p' "$TMP/out")
expect_grep "INTERRUPTED" "$run/gate.txt"
[ -s "$run/junit.xml" ] || fail "no junit.xml in $run"

# SIGTERM while make builds: make's whole group is killed, exit 143.
: >"$TMP/make.pids"
FAKE_MAKE_MODE=hang FAKE_MAKE_PIDS=$TMP/make.pids \
  "$KSERIES" gate --workdir "$TMP/wd-make" "${common[@]}" --series "$TMP/series/demo/good" \
  >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for . "$TMP/make.pids"
kill -TERM $pid
finish $pid 143
expect_grep "^gate: INTERRUPTED" "$TMP/out"
# The series it stopped in is not judged (not "FAIL": its missing cells decide).
expect_grep "^  verdict: INTERRUPTED (not judged" "$TMP/out"
grep -q "^  verdict: FAIL" "$TMP/out" && fail "an interrupted series was judged FAIL"
sleep 0.5
for p in $(cat "$TMP/make.pids"); do
  # A zombie (killed, not yet reaped by its new parent) is dead.
  state=$(sed -n 's/.*) \([A-Z]\).*/\1/p' "/proc/$p/stat" 2>/dev/null || true)
  [ -z "$state" ] || [ "$state" = Z ] || fail "make (or its sleep, pid $p) survived SIGTERM ($state)"
done
# make was signalled and waited for: its build directory is not suspect.
ls "$TMP"/wd-make/targets/*/make.running 2>/dev/null && fail "make.running left after a SIGTERM"

# SIGKILL while make builds (a session's end): kseries cannot clean up, and
# make may leave an object half-written under a fresh timestamp (a.o below).
# The next build finds the make.running mark and cleans the build directory
# first, so a.o is compiled again rather than taken as built.
build=(--workdir "$TMP/wd-kill" --configs "$TMP/configs" --tree "$repo" --base "$kbase" --target toy)
: >"$TMP/make.pids"
FAKE_MAKE_MODE=hang FAKE_MAKE_PIDS=$TMP/make.pids "$KSERIES" build "${build[@]}" \
  >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_for . "$TMP/make.pids"
kill -KILL $pid
finish $pid 137
# shellcheck disable=SC2046
kill -KILL $(cat "$TMP/make.pids") 2>/dev/null || true
[ -e "$TMP/wd-kill/targets/toy/make.running" ] || fail "no make.running mark while make ran"
touch "$TMP/wd-kill/targets/toy/build/a.o"
expect_exit 0 "$KSERIES" build "${build[@]}"
expect_grep "the last make in .*/targets/toy/build never finished (its kseries was killed): make .* clean first" "$TMP/err"
expect_grep "^built toy @ base .*1 objects compiled" "$TMP/out"
[ -e "$TMP/wd-kill/targets/toy/make.running" ] && fail "make.running left after a finished build"

# SIGTERM while QEMU runs a guest that hangs: the same, exit 143.
FAKE_QEMU_MODE=hang "$KSERIES" gate --workdir "$TMP/wd-gate" "${common[@]}" \
  --series "$TMP/series/demo/good" >"$TMP/out" 2>"$TMP/err" &
pid=$!
# QEMU itself must be running (the "boot 1/1" line comes just before it starts).
for _ in $(seq 100); do pgrep -f "qemu-system-x86_64.*$TMP" >/dev/null && break; sleep 0.1; done
kill -TERM $pid
finish $pid 143
expect_grep "error  toy demo: interrupted while running qemu-system-x86_64" "$TMP/out"
sleep 0.5
pgrep -f "qemu-system-x86_64.*$TMP" >/dev/null && fail "a QEMU survived SIGTERM"
echo "PASS"
