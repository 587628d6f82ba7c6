# The ndctl half of the nvdimm test payload (testcases/nvdimm/Makefile,
# target `ndctl`), built on the host from the ndctl source ci/install-deps
# unpacks: ndctl, daxctl, the test programs and the tools the scripts call
# must run with nothing but what the payload carries (the guest is busybox
# and this tar). Each program is run in a chroot of the payload's root: a
# library ldd did not list would stop it there as in the guest. ndctl's
# libndctl test, run without nfit_test (no /sys in the chroot), must skip
# (exit 77) naming why: the skip the ndctl-tests case's own first result
# (nfit_test loads) exists for. Then the check fails for the right reason:
# without libkmod in the root, libndctl does not start.
source "$(dirname "$0")/lib.bash"
NDCTL_SRC=${KSERIES_NDCTL_SRC:-/usr/local/src/kseries/ndctl}
[ -f "$NDCTL_SRC/meson.build" ] || { echo "skipped: no ndctl source in $NDCTL_SRC (ci/install-deps)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skipped: chroot needs root"; exit 77; }
command -v meson >/dev/null || { echo "skipped: no meson (ci/install-deps)"; exit 77; }
out=$TMP/payload
mkdir -p "$out"
make -s -f "$SRC/testcases/nvdimm/Makefile" -C "$out" ndctl OUT="$out" KCC=gcc JOBS=2 \
  NDCTL_SRC="$NDCTL_SRC" >"$TMP/make.log" 2>&1 || { tail -n 30 "$TMP/make.log"; fail "make ndctl failed"; }
root=$out/root
version=$(cut -d' ' -f1 "$NDCTL_SRC/.kseries-version" 2>/dev/null || echo unknown)
[ "$(chroot "$root" /ndctl/ndctl/ndctl --version)" = "$version" ] || fail "ndctl --version is not $version"
[ "$(chroot "$root" /ndctl/daxctl/daxctl --version)" = "$version" ] || fail "daxctl --version is not $version"
[ "$(chroot "$root" /ndctl/cxl/cxl --version)" = "$version" ] || fail "cxl --version is not $version (test/common needs it)"
chroot "$root" /ndctl/bin/jq -n '1+1' | grep -qx 2 || fail "jq does not run from the payload"
chroot "$root" /ndctl/bin/getconf PAGESIZE | grep -qx '[0-9]*' || fail "getconf does not run"
chroot "$root" /ndctl/bin/uuidgen | grep -qE '^[0-9a-f-]{36}$' || fail "uuidgen does not run"
chroot "$root" /ndctl/bin/bash -c 'echo ok' | grep -qx ok || fail "bash does not run"
for t in libndctl dsm-fail ack-shutdown-count-set dax-pmd hugetlb pmem-ns; do
  [ -x "$root/ndctl/test/$t" ] || fail "test program $t missing from the payload"
done
for s in create.sh clear.sh sector-mode.sh label-compat.sh common nmem1.bin; do
  [ -f "$root/ndctl/test/$s" ] || fail "$s missing from the payload"
done
# libndctl without nfit_test: a skip, and why.
expect_exit 77 chroot "$root" /ndctl/test/libndctl
expect_grep "Cannot determine NVDIMM family" "$TMP/err"
expect_grep "nfit_test unavailable skipping tests" "$TMP/err"
# The check fails for the right reason: a library missing from the payload.
rm "$root/lib/x86_64-linux-gnu/libkmod.so.2"
expect_exit 127 chroot "$root" /ndctl/test/libndctl
expect_grep "libkmod.so.2: cannot open shared object file" "$TMP/err"
echo "ok: ndctl $version, its tests and tools run from the payload alone"
