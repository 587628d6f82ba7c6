# Stage timing for ci/run-main and ci/run-tests (sourced, not run).
#
#   stage NAME CMD...   runs CMD as the stage NAME: "== NAME" before it,
#                       "== NAME: 12.3 s wall, 20.1 s CPU, load 1.52" after
#                       (CPU: user+system of everything CMD ran, waited for;
#                       load: the 1-minute load average when it ended, for
#                       a shared machine). Returns CMD's status.
#   stage_bg NAME CMD...  the same in the background (its output is CMD's
#                       to send somewhere); one at a time.
#   stage_wait          waits for it: its line joins the table, its CPU
#                       counts in the stage that waits. Returns its status.
#   stages_summary      the table of every stage so far, on stderr (called
#                       at exit by the EXIT trap set here, which also ends a
#                       background stage still running).
#
# KSERIES_CI_STAGES=FILE also appends one line a stage to FILE:
#   SCRIPT<TAB>NAME<TAB>WALL<TAB>CPU<TAB>LOAD<TAB>STATUS
# (ci/bench-ci reads it).
_stages_script=$(basename "$0")
_stages=()
_stages_start=$EPOCHREALTIME

# The CPU clock ticks (user+system) of the finished children of shell PID,
# recursively: /proc/PID/stat fields 16 and 17.
_stages_child_cpu() {
  local stat rest fields
  stat=$(</proc/$1/stat)
  rest=${stat##*) }  # past "PID (comm) "; comm may hold spaces
  read -r -a fields <<<"$rest"
  # fields[0] is field 3 (state): cutime is field 16, cstime 17.
  echo $(( fields[13] + fields[14] ))
}
_stages_tck=$(getconf CLK_TCK)

stage() {
  local name=$1; shift
  local t0=$EPOCHREALTIME c0 status=0 self=$BASHPID
  c0=$(_stages_child_cpu "$self")
  echo "== $name" >&2
  "$@" || status=$?
  local wall cpu load
  wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  cpu=$(awk -v a="$c0" -v b="$(_stages_child_cpu "$self")" -v t="$_stages_tck" \
    'BEGIN { printf "%.1f", (b - a) / t }')
  read -r load _ </proc/loadavg
  echo "== $name: ${wall} s wall, ${cpu} s CPU, load $load$([ $status = 0 ] || echo ", exit $status")" >&2
  _stages+=("$name"$'\t'"$wall"$'\t'"$cpu"$'\t'"$load"$'\t'"$status")
  if [ -n "${KSERIES_CI_STAGES:-}" ]; then
    printf '%s\t%s\n' "$_stages_script" "${_stages[-1]}" >>"$KSERIES_CI_STAGES"
  fi
  return $status
}

stages_summary() {
  [ ${#_stages[@]} -gt 0 ] || return 0
  local total
  total=$(awk -v a="$_stages_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
  {
    echo "ci/$_stages_script stages (wall s, CPU s, load at the end, exit):"
    local line name wall cpu load status
    for line in "${_stages[@]}"; do
      IFS=$'\t' read -r name wall cpu load status <<<"$line"
      printf '  %-34s %8s %8s %6s %4s\n' "$name" "$wall" "$cpu" "$load" "$status"
    done
    printf '  %-34s %8s\n' "total" "$total"
  } >&2
}
_stages_bg_pid=
_stages_bg_file=
stage_bg() {
  _stages_bg_file=$(mktemp)
  (
    _stages=()
    KSERIES_CI_STAGES=$_stages_bg_file stage "$@"
  ) &
  _stages_bg_pid=$!
}

stage_wait() {
  local status=0 line
  wait "$_stages_bg_pid" || status=$?
  _stages_bg_pid=
  if IFS= read -r line <"$_stages_bg_file"; then
    line=${line#*$'\t'}  # past the script's name
    _stages+=("$line")
    if [ -n "${KSERIES_CI_STAGES:-}" ]; then
      printf '%s\t%s\n' "$_stages_script" "$line" >>"$KSERIES_CI_STAGES"
    fi
  fi
  rm -f "$_stages_bg_file"
  return $status
}

# Ends PID and everything below it (a background stage cut short by a
# failing foreground one): its children first, so none is reparented.
_stages_kill_tree() {
  local child
  for child in $(pgrep -P "$1"); do
    _stages_kill_tree "$child"
  done
  kill -TERM "$1" 2>/dev/null || true
}

_stages_exit() {
  if [ -n "$_stages_bg_pid" ] && kill -0 "$_stages_bg_pid" 2>/dev/null; then
    echo "== ending the background stage (pid $_stages_bg_pid)" >&2
    _stages_kill_tree "$_stages_bg_pid"
    wait "$_stages_bg_pid" 2>/dev/null || true
  fi
  stages_summary
}
trap _stages_exit EXIT
