#!/bin/busybox sh
# nt-ordering: runs memmap_init_zone_device() on every setup while the host's
# memcost plugin watches the ordering of its non-temporal stores. The guest
# only makes the calls and says which are whose: per setup, the number of
# memmap_init_zone_device() calls its binds made (pr_debug lines,
# "memmap_calls"), in the order they ran; the host oracle hands the plugin's
# windows out in that order.
#
# Arguments: setups=A+B+... (default: the four pmem setups, private-0,
# private-9), rebinds=N (default 1: a first bind and N rebinds per pmem
# setup), pages=N (device-private pages, default 65536).
ERR=/tmp/nt-ordering.err
. /testcases/lib/kseries.sh
. /testcases/lib/pmem.sh
. /testcases/lib/memmap.sh

FN=memmap_init_zone_device
rebinds=1
pages=65536
setups=""
in_setups=0
for arg in "$@"; do
  case "$arg" in
    rebinds=*) rebinds=${arg#rebinds=}; in_setups=0 ;;
    pages=*) pages=${arg#pages=}; in_setups=0 ;;
    setups=*) setups="$setups $(echo "${arg#setups=}" | tr '+:' '  ')"; in_setups=1 ;;
    '') ;;
    *=*) kseries_result fail arguments "unknown argument $(clean "$arg")"; exit 2 ;;
    *) [ "$in_setups" = 1 ] && setups="$setups $arg" ;;
  esac
done
case "$rebinds$pages" in *[!0-9]*) kseries_result fail arguments "rebinds and pages are numbers"; exit 2 ;; esac
[ -n "$(echo $setups)" ] || setups="fsdax-mem fsdax-dev devdax-mem devdax-dev private-0 private-9"

DDC=/sys/kernel/debug/dynamic_debug/control
if [ -w "$DDC" ] && ! grep -q "mm/mm_init.c.*=p.*$FN" "$DDC" 2>/dev/null; then
  echo "file mm/mm_init.c +p" >"$DDC" 2>/dev/null
fi
# calls FILE: the memmap_init_zone_device() calls a dmesg capture shows.
calls() { grep -c "$FN initialised" "$1"; }

# Calls made at boot (the raw namespace's probe) come first.
dmesg >/tmp/boot.dmesg
kseries_measure boot-probe 0 memmap_calls "$(calls /tmp/boot.dmesg)" count kind=calls
dmesg -c >/dev/null

pmem_setup() {
  local name=$1 i rc n=0
  pmem_configure "$name"
  rc=$?
  [ "$rc" = 2 ] && { skip "$name" "$setup_skip"; return; }
  [ "$rc" = 0 ] || { fail "$name" "$setup_error"; return; }
  dmesg -c >/dev/null
  if ! sysw "$ND/drivers/$drv/bind" "$dev"; then
    fail "$name" "first bind: $(err)"; free_ns; return
  fi
  pmem_bound || { fail "$name" "$setup_error"; free_ns; return; }
  i=1
  while [ "$i" -le "$rebinds" ]; do
    sysw "$unbindfile" "$bdev" && sysw "$bindfile" "$bdev" ||
      { fail "$name" "rebind $i: $(err)"; free_ns; return; }
    i=$((i + 1))
  done
  dmesg -c >/tmp/setup.dmesg
  n=$(calls /tmp/setup.dmesg)
  pmem_teardown || { fail "$name" "teardown: $(err)"; return; }
  kseries_measure "$name" 0 memmap_calls "$n" count kind=calls
  if [ "$n" -lt 1 ]; then
    fail "$name" "no $FN call was printed (pr_debug for mm/mm_init.c off?)"
  else
    kseries_result pass "$name" "$n call(s) of $FN: $((rebinds + 1)) binds of $dev"
  fi
}

private_setup() {
  local name=$1 shift_=${1#private-} n
  [ -e "$MMD/private" ] || { skip "$name" "no CONFIG_DEVICE_PRIVATE (memmap_dump has no private file)"; return; }
  dmesg -c >/dev/null
  sysw "$MMD/private" "$shift_ $pages" || { fail "$name" "create: $(err)"; return; }
  sysw "$MMD/private" destroy || { fail "$name" "destroy: $(err)"; return; }
  dmesg -c >/tmp/setup.dmesg
  n=$(calls /tmp/setup.dmesg)
  kseries_measure "$name" 0 memmap_calls "$n" count kind=calls
  if [ "$n" -lt 1 ]; then
    fail "$name" "no $FN call was printed"
  else
    kseries_result pass "$name" "$n call(s) of $FN: memremap_pages of $pages device-private pages, vmemmap_shift $shift_"
  fi
}

have_private=0
case "$setups" in *private-*) mmd_load "" $(echo $setups | tr ' ' '\n' | grep '^private-') && have_private=1 ;; esac
tp_setup
[ "$have_tp" = 1 ] && tp_off   # page_ref_set off: the fast path may run
for s in $setups; do
  case "$s" in
    private-[0-9] | private-[0-9][0-9]) [ "$have_private" = 1 ] && private_setup "$s" ;;
    fsdax* | devdax*) pmem_setup "$s" ;;
    *) fail "$s" "unknown setup" ;;
  esac
done
exit 0
