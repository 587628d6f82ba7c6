# Shared guest helpers of the pmem cases (memmap-timing, memmap-equivalence,
# tracepoint-gating): results without '=' in free text, sysfs writes that
# keep the reason, the namespace's state, and a setup's device configured and
# bound. Sourced after /testcases/lib/kseries.sh; the caller sets ERR.
#
# Setup names: <fsdax|devdax>[4k|2m|1g]-<mem|dev>[@LAYOUT]. mem = memmap in
# RAM (pfn mode "ram"), dev = memmap in the device (pfn mode "pmem"); the
# alignment defaults to 2m. LAYOUT is where the namespace lies
# (framework/qemu/pmem_layout.h): aligned (default, region0), share-first
# (its first 128 MiB section also holds System RAM), share-last (its last
# one does); the host lists each region's address on the command line
# (kseries.layouts=NAME:ADDRESS:SIZE,...), and pmem_layout checks that the
# region is what its name claims before a setup uses it.

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

SECTION=134217728  # 128 MiB, x86-64's memory section

# ram_covers FIRST LAST: /proc/iomem has System RAM over [FIRST, LAST].
ram_covers() {
  local first=$1 last=$2 range s e
  for range in $(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1:\2/p' /proc/iomem); do
    s=$((0x${range%:*})); e=$((0x${range#*:}))
    [ "$s" -le "$first" ] && [ "$e" -ge "$last" ] && return 0
  done
  return 1
}

# block_online ADDRESS: the memory block holding ADDRESS is online.
block_online() {
  local size id
  size=$((0x$(cat /sys/devices/system/memory/block_size_bytes 2>/dev/null || echo 8000000)))
  id=$(($1 / size))
  [ "$(cat /sys/devices/system/memory/memory$id/state 2>/dev/null)" = online ]
}

# pmem_layout LAYOUT: sets REGION and NS for LAYOUT's region and checks its
# claim; returns 1 with $setup_error, or 2 with $setup_skip.
pmem_layout() {
  local layout=$1 spec addr size r start end first_section last_section
  layout_facts=""
  spec=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^kseries.layouts=//p' | tr ',' '\n' | grep "^$layout:")
  if [ -z "$spec" ]; then
    if [ "$layout" = aligned ]; then REGION=$ND/devices/region0; NS=namespace0.0; return 0; fi
    setup_error="layout $layout: not on the kernel command line (kseries.layouts=)"; return 1
  fi
  addr=$(($(echo "$spec" | cut -d: -f2)))
  size=$(($(echo "$spec" | cut -d: -f3 | tr -d M) * 1048576))
  REGION=""
  for r in "$ND"/devices/region*; do
    start=$(cat "$r/resource" 2>/dev/null) || continue
    [ $((start)) -eq "$addr" ] && { REGION=$r; break; }
  done
  [ -n "$REGION" ] || { setup_error="layout $layout: no nd region at $(printf 0x%x "$addr") (regions: $(cat "$ND"/devices/region*/resource 2>/dev/null | tr '\n' ' '))"; return 1; }
  NS=$(ls "$REGION" | grep -m 1 '^namespace[0-9]*\.0$')
  [ -n "$NS" ] || { setup_error="layout $layout: $REGION has no namespace"; return 1; }
  end=$((addr + size))
  first_section=$((addr / SECTION * SECTION)); last_section=$(((end - 1) / SECTION * SECTION))
  case "$layout" in
    aligned)
      [ $((addr % SECTION)) = 0 ] && [ $((end % SECTION)) = 0 ] \
        || { setup_skip="layout aligned: $(printf 0x%x-0x%x "$addr" "$end") does not start and end on 128M sections"; return 2; } ;;
    share-first)
      ram_covers "$first_section" $((addr - 1)) && block_online "$first_section" \
        || { setup_skip="layout share-first: no online System RAM in $(printf 0x%x-0x%x "$first_section" "$addr"), the start of its first section"; return 2; }
      layout_facts="its first section $(printf 0x%x "$first_section") also holds System RAM up to $(printf 0x%x "$addr")" ;;
    share-last)
      ram_covers "$end" $((last_section + SECTION - 1)) && block_online "$last_section" \
        || { setup_skip="layout share-last: no online System RAM in $(printf 0x%x-0x%x "$end" $((last_section + SECTION))), the end of its last section"; return 2; }
      layout_facts="its last section $(printf 0x%x "$last_section") also holds System RAM from $(printf 0x%x "$end")" ;;
  esac
  return 0
}

# pmem_configure NAME: parses the setup name, frees the namespace and
# configures the pfn (fsdax) or dax (devdax) seed device to claim it. Sets
# type map mode align_bytes drv dev D (and REGION NS layout). On failure
# returns 1 with the reason in $setup_error, or 2 with $setup_skip (the
# setup cannot run here).
pmem_configure() {
  local name=${1%@*} align
  setup_error=""; setup_skip=""
  layout=aligned
  case "$1" in *@*) layout=${1#*@} ;; esac
  pmem_layout "$layout"
  case $? in 1) return 1 ;; 2) return 2 ;; esac
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
