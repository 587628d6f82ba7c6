# Guest side of the kseries protocol; sourced by /init and by guest scripts.
#
# Structured lines go to $KSERIES_OUT (/dev/ttyS1, a serial port of their
# own), never to the kernel console, so the host never confuses them with
# kernel messages:   KSERIES <verb> key=value key=value ...
# Values have no spaces, except the last key of a line, which may.
# Bulk data (dumps, traces) goes to the raw disk /dev/vda through
# kseries_put, which announces each blob with its offset, size and sha256.

KSERIES_OUT=${KSERIES_OUT:-/dev/ttyS1}
KSERIES_DISK=${KSERIES_DISK:-/dev/vda}
KSERIES_OFFSET_FILE=/tmp/.kseries-disk-offset

kseries_emit() {
  echo "KSERIES $*" >"$KSERIES_OUT"
}

# kseries_cmdline_value KEY: the value of KEY=... on the kernel command line.
kseries_cmdline_value() {
  for word in $(cat /proc/cmdline); do
    case "$word" in
      "$1"=*) echo "${word#*=}" | tr -d '"'; return ;;
    esac
  done
}

# kseries_measure SETUP ITER METRIC VALUE UNIT [key=value ...]
kseries_measure() {
  local setup=$1 iter=$2 metric=$3 value=$4 unit=$5
  shift 5
  kseries_emit measure setup="$setup" iter="$iter" metric="$metric" value="$value" unit="$unit" "$@"
}

# kseries_result STATUS SUBJECT [REASON...]: STATUS is pass, fail or skip.
kseries_result() {
  local status=$1 subject=$2
  shift 2
  kseries_emit result status="$status" subject="$subject" reason="$*"
}

# kseries_put NAME FILE: copies FILE to the bulk disk, 4 KiB aligned.
kseries_put() {
  local name=$1 file=$2 offset size sum
  [ -b "$KSERIES_DISK" ] || { kseries_emit guest-error reason="no bulk disk $KSERIES_DISK"; return 1; }
  offset=$(cat "$KSERIES_OFFSET_FILE" 2>/dev/null || echo 0)
  size=$(wc -c <"$file")
  sum=$(sha256sum "$file" | cut -d' ' -f1)
  dd if="$file" of="$KSERIES_DISK" bs=4096 seek=$((offset / 4096)) conv=notrunc 2>/dev/null || {
    kseries_emit guest-error reason="writing $name to $KSERIES_DISK failed"; return 1; }
  sync
  echo $(( (offset + size + 4095) / 4096 * 4096 )) >"$KSERIES_OFFSET_FILE"
  kseries_emit blob name="$name" offset="$offset" size="$size" sha256="$sum"
}

# kseries_step SETUP STEP: a marker in the kernel log ("kseries-step: SETUP
# STEP"), so the host names the step a splat happened in (guest/triage.h).
kseries_step() { echo "kseries-step: $*" >/dev/kmsg 2>/dev/null; }

# kseries_setups_and_timeout DEFAULT "$@": a case's arguments setups=A:B:...
# (a name per setup; kseries.args may split them over words) and
# timeout=SECONDS (DEFAULT when absent) into $setups and $timeout; anything
# else is a failed result "arguments" and exit 2.
kseries_setups_and_timeout() {
  timeout=$1
  shift
  setups=""
  _in_setups=0
  for _arg in "$@"; do
    case "$_arg" in
      setups=*) setups="$setups $(echo "${_arg#setups=}" | tr '+:' '  ')"; _in_setups=1 ;;
      timeout=*) timeout=${_arg#timeout=}; _in_setups=0 ;;
      *=*) kseries_result fail arguments "unknown argument $(echo "$_arg" | tr '=' ':') (setups, timeout)"; exit 2 ;;
      '') ;;
      *) [ "$_in_setups" = 1 ] && setups="$setups $_arg" ;;
    esac
  done
  case "$timeout" in '' | *[!0-9]*) kseries_result fail arguments "timeout must be seconds"; exit 2 ;; esac
}
