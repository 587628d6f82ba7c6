# Shared guest helpers of the pmem cases (memmap-timing, memmap-equivalence,
# tracepoint-gating): results without '=' in free text, sysfs writes that
# keep the reason, the namespace's state, and a setup's device configured and
# bound. Sourced after /testcases/lib/kseries.sh; the caller sets ERR.
#
# Setup names: <fsdax|devdax>[4k|2m|1g]-<mem|dev>. mem = memmap in RAM (pfn
# mode "ram"), dev = memmap in the device (pfn mode "pmem"); the alignment
# defaults to 2m.

ND=/sys/bus/nd
DAXBUS=/sys/bus/dax
REGION=$ND/devices/region0
NS=namespace0.0
ERR=${ERR:-/tmp/kseries-pmem.err}

# The protocol parser ends a value at the next " key=", so keep '=' out of
# free text.
clean() { echo "$*" | tr '=\n' ':;' | sed 's/;$//; s/  */ /g; s/ *$//'; }
fail() { local subject=$1; shift; kseries_result fail "$subject" "$(clean "$*")"; }
skip() { local subject=$1; shift; kseries_result skip "$subject" "$(clean "$*")"; }

# sysw FILE VALUE: write VALUE to a sysfs FILE; on error the reason is in $ERR.
sysw() {
  if ! { echo "$2" >"$1"; } 2>"$ERR"; then
    echo "writing '$2' to $1: $(sed 's/^.*write error: //' "$ERR" | tr '\n' ' ')" >"$ERR"
    return 1
  fi
}
err() { cat "$ERR" 2>/dev/null; }

# free_ns: release namespace0.0 from whatever holds it, on every path: any
# pfn/dax/btt device that claims it is unbound and its claim dropped (a
# failed bind leaves the claim, and every later claim then fails with EBUSY),
# and the raw namespace is unbound. The raw namespace is not bound again:
# its probe would find the info block a setup wrote and auto-create a pfn or
# dax device claiming the namespace.
free_ns() {
  local d drv
  for d in "$ND"/devices/pfn* "$ND"/devices/dax* "$ND"/devices/btt*; do
    [ -e "$d/namespace" ] || continue
    [ "$(cat "$d/namespace" 2>/dev/null)" = "$NS" ] || continue
    if [ -e "$d/driver" ]; then
      drv=$(basename "$(readlink -f "$d/driver")")
      echo "${d##*/}" >"$ND/drivers/$drv/unbind" 2>/dev/null
    fi
    echo "" >"$d/namespace" 2>/dev/null
  done
  if [ -e "$ND/devices/$NS/driver" ]; then
    drv=$(basename "$(readlink -f "$ND/devices/$NS/driver")")
    echo "$NS" >"$ND/drivers/$drv/unbind" 2>/dev/null
  fi
  dmesg -c >/dev/null
}

# pmem_configure NAME: parses the setup name, frees the namespace and
# configures the pfn (fsdax) or dax (devdax) seed device to claim it. Sets
# type map mode align_bytes drv dev D. On failure returns 1 with the
# reason in $setup_error, or 2 with $setup_skip (the setup cannot run here).
pmem_configure() {
  local name=$1 align
  setup_error=""; setup_skip=""
  case "$name" in
    fsdax*-mem | devdax*-mem) map=mem; mode=ram ;;
    fsdax*-dev | devdax*-dev) map=dev; mode=pmem ;;
    *) setup_error="unknown setup (expected <fsdax|devdax>[4k|2m|1g]-<mem|dev>)"; return 1 ;;
  esac
  type=${name%%-*}
  align=${type#fsdax}; align=${align#devdax}; type=${type%"$align"}
  case "$type" in fsdax | devdax) ;; *) setup_error="unknown device type '$type'"; return 1 ;; esac
  case "$align" in
    '' | 2m) align_bytes=2097152 ;;
    4k) align_bytes=4096 ;;
    1g) align_bytes=1073741824 ;;
    *) setup_error="unknown alignment '$align' (4k, 2m or 1g)"; return 1 ;;
  esac
  [ -d "$REGION" ] || { setup_error="no $REGION (no pmem: memmap:SIZE!OFFSET missing?)"; return 1; }
  if [ "$type" = fsdax ]; then
    drv=nd_pmem
    dev=$(cat "$REGION/pfn_seed" 2>/dev/null)
    [ -n "$dev" ] && [ -d "$ND/devices/$dev" ] || { setup_error="no pfn seed in $REGION/pfn_seed"; return 1; }
  else
    drv=dax_pmem
    [ -d "$ND/drivers/dax_pmem" ] || { setup_skip="no dax_pmem driver (CONFIG_DEV_DAX_PMEM off)"; return 2; }
    dev=$(cat "$REGION/dax_seed" 2>/dev/null)
    [ -n "$dev" ] && [ -d "$ND/devices/$dev" ] || { setup_error="no dax seed in $REGION/dax_seed"; return 1; }
  fi
  D=$ND/devices/$dev
  if [ -r "$D/supported_alignments" ] && ! grep -qw "$align_bytes" "$D/supported_alignments"; then
    setup_skip="align $align_bytes not in $D/supported_alignments ($(cat "$D/supported_alignments"))"
    return 2
  fi
  free_ns
  sysw "$D/uuid" "$(cat /proc/sys/kernel/random/uuid)" && sysw "$D/mode" "$mode" \
    && sysw "$D/align" "$align_bytes" && sysw "$D/namespace" "$NS" \
    || { setup_error="$(err)"; free_ns; return 1; }
  return 0
}

# pmem_bound: after the first bind of $dev to $drv, the device rebinds act
# on: sets bdev bindfile unbindfile (the pfn device on nd_pmem, or the
# daxR.N device dax_pmem created on device_dax). 1 with $setup_error if not.
pmem_bound() {
  setup_error=""
  if [ "$type" = fsdax ]; then
    bdev=$dev
    bindfile=$ND/drivers/nd_pmem/bind; unbindfile=$ND/drivers/nd_pmem/unbind
    return 0
  fi
  bdev=$(ls "$(readlink -f "$D")" | grep '^dax[0-9]*\.[0-9]*$' | head -n 1)
  [ -n "$bdev" ] && [ -d "$DAXBUS/devices/$bdev" ] \
    || { setup_error="$dev bound but no dax device under $(readlink -f "$D")"; return 1; }
  [ "$(basename "$(readlink -f "$DAXBUS/devices/$bdev/driver")")" = device_dax ] \
    || { setup_error="$DAXBUS/devices/$bdev not bound to device_dax ($(readlink "$DAXBUS/devices/$bdev/driver"))"; return 1; }
  bindfile=$DAXBUS/drivers/device_dax/bind; unbindfile=$DAXBUS/drivers/device_dax/unbind
}

# pmem_teardown: unbind $dev and drop its claim; 1 with the reason in $ERR.
pmem_teardown() {
  local rc=0
  sysw "$ND/drivers/$drv/unbind" "$dev" && sysw "$D/namespace" "" || rc=1
  free_ns
  return $rc
}
