# A signal cuts a blocked call. kseries blocked on a FIFO with no writer (an
# mbox given as --series) ignored SIGTERM and SIGINT for over ten minutes:
# the handlers had SA_RESTART and only set a flag; only SIGKILL ended it.
# Now a FIFO is no series (refused at once, exit 2), and where kseries does
# wait on one (a --junit FIFO nobody reads yet: the placeholder report is
# written first) SIGTERM stops it with 143, SIGINT with 130.
source "$(dirname "$0")/lib.bash"
make_toy_repo "$TMP/toy"
base=$(git -C "$TMP/toy" rev-parse HEAD~2)
git -C "$TMP/toy" format-patch -q -o "$TMP/good" --base="$base" HEAD~2
(cd "$TMP/good" && ls *.patch >series)
mkfifo "$TMP/junit.fifo" "$TMP/series.fifo"
# run_and_signal SIGNAL WANT_EXIT ARGS...: starts kseries apply ARGS, sends
# SIGNAL after a second, and requires exit WANT_EXIT within 20 s.
run_and_signal() {
  local signal=$1 want=$2; shift 2
  "$KSERIES" apply --workdir "$TMP/wd" --tree "$TMP/toy" --base "$base" "$@" \
    >"$TMP/out" 2>"$TMP/err" &
  local pid=$!
  sleep 1
  kill -"$signal" "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid" || true
    fail "SIG$signal did not stop kseries blocked on a FIFO ($*)"
  fi
  local rc=0
  wait "$pid" || rc=$?
  [[ "$rc" =~ ^($want)$ ]] || { cat "$TMP/err"; fail "SIG$signal: exit $rc, expected $want ($*)"; }
}
run_and_signal TERM "2|143" --series "$TMP/series.fifo"
for signal in TERM INT; do
  want=$([ "$signal" = TERM ] && echo 143 || echo 130)
  run_and_signal "$signal" "$want" --series "$TMP/good" --junit "$TMP/junit.fifo"
  expect_grep "interrupted (SIG$signal)" "$TMP/err"
  [ -p "$TMP/junit.fifo" ] || fail "the FIFO was replaced"
done
echo "PASS"
