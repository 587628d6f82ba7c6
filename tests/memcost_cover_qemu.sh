# The memcost plugin's cover= mode in a real QEMU (TCG) on the tiny
# multiboot guest of memcost_plugin_qemu.sh, which calls its `measured`
# function five times: the file lists the executed instructions in
# ascending order with their counts, `measured`'s first instruction among
# them with count 5; min= keeps what lies below out; cover= with a memcost
# argument is refused.
source "$(dirname "$0")/lib.bash"
command -v qemu-system-x86_64 >/dev/null || { echo "skipped: no qemu-system-x86_64"; exit 77; }
plugin=$(dirname "$KSERIES")/memcost.so
[ -f "$plugin" ] || fail "no plugin at $plugin"
as --32 -o "$TMP/guest.o" "$SRC/tests/data/memcost/guest.S"
ld -m elf_i386 --no-warn-rwx-segments -T "$SRC/tests/data/memcost/guest.ld" -o "$TMP/guest.elf" "$TMP/guest.o"
measured=$(nm "$TMP/guest.elf" | awk '$3 == "measured" { print "0x" $1 }' | sed 's/0x0*/0x/')
run_guest() {  # run_guest PLUGIN-ARGS
  set +e
  timeout 120 qemu-system-x86_64 -accel tcg -m 64M -display none -nodefaults -no-reboot \
    -device isa-debug-exit,iobase=0xf4,iosize=4 -kernel "$TMP/guest.elf" \
    -plugin "file=$plugin,$1" 2>"$TMP/qemu-err"
  rc=$?
  set -e
}
run_guest "cover=$TMP/cover,min=0"
[ "$rc" = 33 ] || fail "the guest did not exit through isa-debug-exit (rc $rc): $(cat "$TMP/qemu-err")"
expect_grep "^kseries-cover version=1 min=0x0$" "$TMP/cover"
pcs=$(grep -c '^0x' "$TMP/cover")
[ "$pcs" -gt 10 ] || fail "only $pcs executed addresses"
expect_grep "^end pcs=$pcs$" "$TMP/cover"
expect_grep "^$measured 5$" "$TMP/cover"
# Ascending, distinct, every count above 0.
python3 - "$TMP/cover" <<'PY' || fail "addresses not ascending or a count of 0"
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("0x")]
pcs = [int(r[0], 16) for r in rows]
sys.exit(0 if pcs == sorted(set(pcs)) and all(int(r[1]) > 0 for r in rows) else 1)
PY
# min= above the guest: nothing of it listed.
run_guest "cover=$TMP/cover-high,min=0xffff800000000000"
expect_grep "^end pcs=0$" "$TMP/cover-high"
# Cover mode is its own: memcost arguments are refused (QEMU does not start).
run_guest "cover=$TMP/cover-bad,entry=$measured"
[ "$rc" != 33 ] || fail "cover= with entry= was accepted"
expect_grep "cover= takes only min=, not 'entry=" "$TMP/qemu-err"
echo ok
