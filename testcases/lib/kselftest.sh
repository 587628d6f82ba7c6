# The kernel's own tests in the guest, for guest scripts: the test payload
# (testcases/kselftest: the tree's selftests, its in-tree test modules and
# bash, built against the booted kernel) unpacked at /, and KTAP documents
# sent to the host, where the tree's own parser reads them (oracle ktap,
# docs/selftests.md). Needs kseries.sh.

KSELFTEST_TAR=/testcases/kselftest/kselftest.tar

# kselftest_unpack: 0 once /kselftest and /lib/modules/$(uname -r) are in
# place; else 1 and $kselftest_error says why.
kselftest_unpack() {
  kselftest_error=""
  [ -f "$KSELFTEST_TAR" ] || { kselftest_error="no test payload $KSELFTEST_TAR in the initramfs"; return 1; }
  tar -xf "$KSELFTEST_TAR" -C / 2>/tmp/kselftest.err ||
    { kselftest_error="unpacking $KSELFTEST_TAR: $(head -c 300 /tmp/kselftest.err)"; return 1; }
  [ -d "/lib/modules/$(uname -r)" ] ||
    { kselftest_error="the payload has no /lib/modules/$(uname -r): built for another kernel?"; return 1; }
  [ -x /kselftest/bin/bash ] && ln -sf /kselftest/bin/bash /bin/bash
  depmod 2>/tmp/kselftest.err ||
    { kselftest_error="depmod: $(head -c 300 /tmp/kselftest.err)"; return 1; }
  return 0
}

# kselftest_send NAME FILE: FILE, one KTAP document, as the blob ktap-NAME.
kselftest_send() {
  kseries_put "ktap-$1" "$2"
}
