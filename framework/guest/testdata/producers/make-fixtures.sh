#!/bin/bash
# Reproduces the recorded serial logs of framework/guest/testdata/ by booting
# a real kernel under QEMU (TCG). Usage:
#   make-fixtures.sh BZIMAGE OUTDIR [FIXTURE...]
# FIXTURE: normal panic-no-init panic-no-root panic-cmdline hung rcu-stall
#          failed-bind unknown-case tracepoint default (all when none given).
# Needs qemu-system-x86_64, gcc, cpio, busybox-static. Every QEMU runs under
# `timeout`; the hung fixture is killed by `timeout 60` on purpose.
set -euo pipefail
kernel=$(readlink -f "$1"); out=$(readlink -f "$2"); shift 2
here=$(dirname "$(readlink -f "$0")")
main=$(cd "$here/../../../.." && pwd)          # the kseries checkout
work=$(mktemp -d "${TMPDIR:-/tmp}/kseries-fixtures.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
gcc -static -O2 -o "$work/bindtime" "$main/testcases/helpers/bindtime.c"

# initramfs OUT INIT MODE: the kseries guest layout (testcases/README.md);
# INIT "-" leaves /init out.
initramfs() {
  local d="$work/root.$RANDOM"
  mkdir -p "$d/bin" "$d/testcases/lib" "$d/testcases/bin" "$d/dev"
  cp /bin/busybox "$d/bin/busybox"
  if [ "$2" != - ]; then cp "$2" "$d/init"; chmod "$3" "$d/init"; fi
  cp "$main/testcases/lib/kseries.sh" "$d/testcases/lib/"
  cp "$work/bindtime" "$d/testcases/bin/"
  for c in "$main"/testcases/*/; do
    case $(basename "$c") in lib | helpers) continue ;; esac
    cp -r "$c" "$d/testcases/"
  done
  (cd "$d" && find . | cpio -o -H newc --quiet) >"$1"
  rm -rf "$d"
}

BASE='console=ttyS0 memmap=2G!4G nokaslr loglevel=8 panic=-1 dyndbg="file mm/mm_init.c +p"'
# boot NAME INITRD TIMEOUT EXTRA_CMDLINE: console -> NAME.console.log,
# protocol (ttyS1) -> NAME.protocol.log, QEMU's exit status -> NAME.rc
boot() {
  local name=$1 initrd=$2 limit=$3 extra=$4 rc=0
  truncate -s 256M "$work/bulk.img"
  timeout "$limit" qemu-system-x86_64 -accel tcg -m 8G -smp 2 -nodefaults -display none \
    -vga none -no-reboot -serial "file:$work/$name.console.log" \
    -serial "file:$work/$name.protocol.log" -drive "file=$work/bulk.img,format=raw,if=virtio" \
    -kernel "$kernel" -initrd "$initrd" -append "$BASE $extra" || rc=$?
  echo "$rc" >"$work/$name.rc"
  echo "$name: qemu exit $rc" >&2
}
keep() { cp "$work/$1" "$out/$2"; }

initramfs "$work/std.cpio" "$main/testcases/lib/init" 755
want=${*:-normal panic-no-init panic-no-root panic-cmdline hung rcu-stall failed-bind unknown-case tracepoint default}
for f in $want; do
  case $f in
    normal)
      boot normal "$work/std.cpio" 600 'kseries.case=memmap-timing kseries.args=rebinds=3'
      keep normal.console.log normal-console.log; keep normal.protocol.log normal-protocol.log ;;
    panic-no-init)   # /init present but mode 0644
      initramfs "$work/noexec.cpio" "$main/testcases/lib/init" 644
      boot panic-no-init "$work/noexec.cpio" 120 'kseries.case=memmap-timing'
      keep panic-no-init.console.log panic-no-init.console.log ;;
    panic-no-root)   # no /init at all
      initramfs "$work/noinit.cpio" - -
      boot panic-no-root "$work/noinit.cpio" 120 'kseries.case=memmap-timing'
      keep panic-no-root.console.log panic-no-root.console.log ;;
    panic-cmdline)   # rdinit= names a program that exits: init dies
      boot panic-cmdline "$work/std.cpio" 120 'rdinit=/bin/busybox kseries.case=memmap-timing'
      keep panic-cmdline.console.log panic-cmdline.console.log ;;
    hung)
      initramfs "$work/hang.cpio" "$here/init-hang.sh" 755
      boot hung "$work/hang.cpio" 60 ''
      keep hung.console.log hung.console.log ;;
    rcu-stall)
      initramfs "$work/rcu.cpio" "$here/init-rcu-stall.sh" 755
      boot rcu-stall "$work/rcu.cpio" 300 'rcupdate.rcu_cpu_stall_timeout=3'
      keep rcu-stall.console.log rcu-stall.console.log ;;
    failed-bind)     # pmem start not 2 MiB aligned: every bind fails, cleanly
      BASE=${BASE/memmap=2G!4G/memmap=2047M!4097M} \
        boot failed-bind "$work/std.cpio" 300 'kseries.case=memmap-timing kseries.args=rebinds=3'
      keep failed-bind.console.log failed-bind.console.log
      keep failed-bind.protocol.log failed-bind.protocol.log ;;
    unknown-case)
      boot unknown-case "$work/std.cpio" 120 'kseries.case=nosuch'
      keep unknown-case.console.log unknown-case.console.log
      keep unknown-case.protocol.log unknown-case.protocol.log ;;
    tracepoint)
      boot tracepoint "$work/std.cpio" 600 \
        'kseries.case=memmap-timing kseries.args=rebinds=2,tracepoint=on,setups=devdax-mem+fsdax-dev+devdax1g-mem+devdax4k-dev'
      keep tracepoint.console.log tracepoint.console.log
      keep tracepoint.protocol.log tracepoint.protocol.log ;;
    default)
      boot default "$work/std.cpio" 900 'kseries.case=memmap-timing'
      keep default.console.log default.console.log
      keep default.protocol.log default.protocol.log ;;
    *) echo "unknown fixture '$f'" >&2; exit 2 ;;
  esac
done
