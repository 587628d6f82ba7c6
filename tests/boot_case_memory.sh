# A case's `memory:` (case.conf) becomes QEMU's -m for its boots; a case
# without one keeps the default 8G; a malformed one is a usage error naming
# the line.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/cases/lib"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: hugetlb\n' >"$TMP/configs/targets/toy.target"
printf '#!/bin/sh\n' >"$TMP/cases/lib/init"
for c in big plain bad; do
  mkdir -p "$TMP/cases/$c"
  printf '#!/bin/sh\n' >"$TMP/cases/$c/guest.sh"
  chmod +x "$TMP/cases/$c/guest.sh"
done
printf 'description: big\nneeds: hugetlb\nsetups: 1G\ntimeout: 30\nmemory: 16G\n' >"$TMP/cases/big/case.conf"
printf 'description: plain\nneeds: hugetlb\nsetups: 1G\ntimeout: 30\n' >"$TMP/cases/plain/case.conf"
printf 'description: bad\nmemory: lots\n' >"$TMP/cases/bad/case.conf"
: >"$TMP/kvm"
export KSERIES_KVM_DEVICE=$TMP/no-kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --target toy --boots 1)

expect_exit 0 "$KSERIES" boot "${common[@]}" --case big --json "$TMP/big.json"
grep -A1 '"-m"' "$TMP/big.json" | grep -q '"16G"' || { cat "$TMP/big.json"; fail "the case's memory: 16G is not QEMU's -m"; }
expect_exit 0 "$KSERIES" boot "${common[@]}" --case plain --json "$TMP/plain.json"
grep -A1 '"-m"' "$TMP/plain.json" | grep -q '"8G"' || { cat "$TMP/plain.json"; fail "a case without memory: did not keep -m 8G"; }
expect_exit 2 "$KSERIES" boot "${common[@]}" --case bad
expect_grep "bad/case.conf:2: memory must be a size such as 16G" "$TMP/err"
echo "PASS"
