# A target's boot settings (pmem-size:, cpus:, boot-timeout:) reach QEMU
# where the command line is silent: -smp and the memmap= size in the argv
# the report records; --size wins over pmem-size:; a target without them
# keeps -smp 2 and 2G; a malformed value is a usage error naming the line.
# A case that does not need pmem boots with no memmap= at all (its RAM whole).
# A case's clock: (wall) is its boots' clock under --clock auto (TCG: no
# -icount), and --clock icount on the command line wins.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/cases/lib" "$TMP/cases/plain" "$TMP/cases/ram"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\npmem-size: 256M\ncpus: 1\nboot-timeout: 3600\n' >"$TMP/configs/targets/slow.target"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/plain.target"
printf 'fragments: a\nfeatures: pmem\ncpus: many\n' >"$TMP/configs/targets/bad.target"
printf '#!/bin/sh\n' >"$TMP/cases/lib/init"
printf '#!/bin/sh\n' >"$TMP/cases/plain/guest.sh"
chmod +x "$TMP/cases/plain/guest.sh"
printf 'description: plain\nneeds: pmem\nsetups: one\ntimeout: 30\n' >"$TMP/cases/plain/case.conf"
printf '#!/bin/sh\n' >"$TMP/cases/ram/guest.sh"
chmod +x "$TMP/cases/ram/guest.sh"
printf 'description: no pmem\nsetups: one\ntimeout: 30\n' >"$TMP/cases/ram/case.conf"
mkdir -p "$TMP/cases/walled"
cp "$TMP/cases/plain/guest.sh" "$TMP/cases/walled/guest.sh"
printf 'description: wall\nneeds: pmem\nsetups: one\ntimeout: 30\nclock: wall\n' >"$TMP/cases/walled/case.conf"
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --case plain --boots 1)

argv_of() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        if "argv" in o: print(" ".join(o["argv"])); return
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(d)' "$1"; }

expect_exit 0 "$KSERIES" boot "${common[@]}" --target slow --json "$TMP/slow.json"
argv_of "$TMP/slow.json" >"$TMP/slow.argv"
expect_grep "-smp 1 " "$TMP/slow.argv"
expect_grep "memmap=256M!" "$TMP/slow.argv"
expect_exit 0 "$KSERIES" boot "${common[@]}" --target slow --size 512M --json "$TMP/sized.json"
argv_of "$TMP/sized.json" >"$TMP/sized.argv"
expect_grep "memmap=512M!" "$TMP/sized.argv"
expect_exit 0 "$KSERIES" boot "${common[@]}" --target plain --json "$TMP/plain.json"
argv_of "$TMP/plain.json" >"$TMP/plain.argv"
expect_grep "-smp 2 " "$TMP/plain.argv"
expect_grep "memmap=2G!" "$TMP/plain.argv"
expect_exit 0 "$KSERIES" boot "${common[@]/plain/ram}" --target plain --json "$TMP/ram.json"
argv_of "$TMP/ram.json" >"$TMP/ram.argv"
expect_grep "-smp 2 " "$TMP/ram.argv"
if grep -q "memmap=" "$TMP/ram.argv"; then
  echo "FAIL: a case without needs: pmem got a memmap= region: $(cat "$TMP/ram.argv")"; exit 1
fi
expect_exit 0 "$KSERIES" boot "${common[@]/plain/walled}" --target plain --json "$TMP/walled.json"
argv_of "$TMP/walled.json" >"$TMP/walled.argv"
if grep -q -- "-icount" "$TMP/walled.argv"; then
  echo "FAIL: a case with clock: wall booted under icount: $(cat "$TMP/walled.argv")"; exit 1
fi
expect_grep "^clock: wall" "$TMP/out"
expect_exit 0 "$KSERIES" boot "${common[@]/plain/walled}" --target plain --clock icount --json "$TMP/icount.json"
argv_of "$TMP/icount.json" | grep -q -- "-icount" || fail "--clock icount did not win over the case's clock: wall"
expect_exit 2 "$KSERIES" boot "${common[@]}" --target bad
expect_grep "bad.target:3: cpus is a vCPU count from 1 to 64, not 'many'" "$TMP/err"
echo "PASS"
