# kseries boot --clock memory and the nt-ordering oracle with stand-in make
# and QEMU (the stand-in writes the memcost plugin's records as the plugin
# would): modelled times compared like the instruction clock's, the clock
# and profile named in every report, windows that do not add up fail the
# boot, no records fail it, a mistyped clock is a usage error before any
# work; nt-ordering passes ordered non-temporal stores, fails undrained ones
# with the PCs and the PFN, and says "not applicable" where there are none.
source "$(dirname "$0")/lib.bash"
export PATH="$SRC/tests/fake-bin:$PATH"
[ -e /bin/busybox ] || { echo "skipped: /bin/busybox (busybox-static) is not installed"; exit 77; }
plugin=$(dirname "$KSERIES")/memcost.so
[ -f "$plugin" ] || fail "no plugin at $plugin"
repo=$TMP/toy
mkdir -p "$repo/scripts/kconfig" "$TMP/configs/targets" "$TMP/configs/fragments" "$TMP/configs/machines"
toy_kernel "$repo"
echo "int a;" >"$repo/a.c"
git -C "$repo" add -A && git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
series() {  # series NAME CONTENT: a one-patch series writing CONTENT to ./speed
  git -C "$repo" checkout -q -b "$1" "$base"
  echo "$2" >"$repo/speed" && git -C "$repo" add -A && git -C "$repo" commit -q -m "demo: $1"
  git -C "$repo" format-patch -q -o "$TMP/series/demo/$1" --base="$base" HEAD~1
  (cd "$TMP/series/demo/$1" && ls *.patch >series)
  git -C "$repo" checkout -q main
}
series nt "ntstore"
series bug "ntbug"
series ntslow "refactor ntstore"
cp "$SRC/kernel-configs/machines/icelake-sp.machine" "$TMP/configs/machines/"
echo 'CONFIG_DEMO_A=y' >"$TMP/configs/fragments/a.config"
printf 'fragments: a\nfeatures: pmem\n' >"$TMP/configs/targets/toy.target"
toy_demo_case
mkdir -p "$TMP/cases/order"
cp "$TMP/cases/demo/guest.sh" "$TMP/cases/order/guest.sh"
printf 'description: order\nneeds: pmem\ntimeout: 30\noracle: nt-ordering\n' >"$TMP/cases/order/case.conf"
: >"$TMP/kvm"
export KSERIES_KVM_DEVICE=$TMP/kvm
common=(--workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" --tree "$repo"
        --base "$base" --target toy --accel tcg)

# The memory clock: the non-temporal series reads less DRAM, so its
# modelled time is lower although its instructions are the same.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --series "$TMP/series/demo/nt" --compare-base \
  --clock memory --json "$TMP/r.json" --junit "$TMP/j.xml"
expect_grep "^clock: memory (icount plus the memcost QEMU plugin)" "$TMP/out"
expect_grep "memory model icelake-sp: icelake-sp scaled 1/50" "$TMP/err"
expect_grep "faster.*memmap_init_mns.devdax-mem" "$TMP/out"
expect_grep "same.*memmap_init_vns.devdax-mem" "$TMP/out"
expect_grep 'name="clock" value="memory"' "$TMP/j.xml"
expect_grep 'name="memory_model" value="icelake-sp scaled 1/50' "$TMP/j.xml"
expect_grep "^memory model: icelake-sp scaled 1/50 (L1D 768 B" "$TMP/out"
grep -q '"memory_model": "icelake-sp scaled' "$TMP/r.json" || fail "no memory model in the JSON"
grep -q '"clock": "memory"' "$TMP/r.json" || fail "no memory clock in the JSON"
grep -q '"unit": "mns"' "$TMP/r.json" || fail "no modelled times in the JSON"
grep -q 'memcost.so,out=' "$TMP/r.json" || fail "QEMU was not given the plugin"
# What the modelled time is made of, per kernel and setup: the rebinds'
# instructions and DRAM bytes (the first bind apart), and which term bound it.
expect_grep "^memory traffic per rebind, base " "$TMP/out"
expect_grep "^memory traffic per rebind, nt " "$TMP/out"
expect_grep "^  fsdax-dev .* 1 MB .* compute$" "$TMP/out"
python3 - "$TMP/r.json" <<'PY' || fail "memory_traffic in the JSON"
import json, sys
kernels = json.load(open(sys.argv[1]))["kernels"]
base, nt = kernels["base"]["memory_traffic"], kernels["nt"]["memory_traffic"]
for setup, t in base.items():
    assert t["rebinds"] > 0 and t["windows"] >= t["rebinds"], (setup, t)
# The stand-in plugin's non-temporal series reads nothing for ownership.
assert all(t["dram_read"] > 0 for t in base.values()), base
assert any(t["dram_read"] < base[s]["dram_read"] for s, t in nt.items()), (base, nt)
PY
# More instructions that save DRAM traffic: slower under icount (exit 1),
# faster under the memory clock, whose modelled time decides (exit 0; the
# instructions are reported as evidence).
expect_exit 1 "$KSERIES" boot "${common[@]}" --case demo --series "$TMP/series/demo/ntslow" --compare-base
expect_grep "slower.*memmap_init_vns.devdax-mem" "$TMP/out"
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --series "$TMP/series/demo/ntslow" --compare-base \
  --clock memory --junit "$TMP/j2.xml"
expect_grep "slower.*memmap_init_vns.devdax-mem" "$TMP/out"
expect_grep "faster.*memmap_init_mns.devdax-mem" "$TMP/out"
grep -A1 'memmap_init_vns ntslow vs base' "$TMP/j2.xml" | grep -q '<failure' &&
  fail "an instruction figure failed the memory clock's comparison"
grep -q 'evidence=instructions under the memory clock' "$TMP/j2.xml" || fail "no evidence note in the JUnit"
# A sweep: a second model in the same boots, a metric of its own.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case demo --clock memory --memory-llc 8M
expect_grep "memmap_init_mns_llc8192k" "$TMP/out"
# Windows that do not add up to the guest's calls: the boot fails.
FAKE_QEMU_MEMCOST=short expect_exit 1 "$KSERIES" boot "${common[@]}" --case demo --clock memory
expect_grep "the guest measured more calls of memmap_init_zone_device() than the plugin saw (31 windows)" "$TMP/out"
FAKE_QEMU_MEMCOST=none expect_exit 1 "$KSERIES" boot "${common[@]}" --case demo --clock memory
expect_grep "the plugin left no records" "$TMP/out"
# A mistyped clock or profile: exit 2 before anything is built.
expect_exit 2 "$KSERIES" boot "${common[@]}" --case demo --clock icuont
expect_grep "clock must be auto, icount, memory or wall, not 'icuont'" "$TMP/err"
expect_exit 2 "$KSERIES" boot "${common[@]}" --case demo --clock memory --memory-profile nosuch
expect_grep "no machine profile" "$TMP/err"
grep -q "build" "$TMP/err" && grep -q "make" "$TMP/err" && fail "work started before the usage error"
# A profile's figure taken on trust (issue 50, class 8): std::stoull read
# "seed-memmap-bytes: -1" as 2^64-1; a key given twice kept the last value.
# Both are usage errors naming the file and line, before anything is built.
grep -v '^seed-memmap-bytes:' "$TMP/configs/machines/icelake-sp.machine" >"$TMP/minus.machine"
echo "seed-memmap-bytes: -1" >>"$TMP/minus.machine"
expect_exit 2 "$KSERIES" boot "${common[@]}" --case demo --clock memory \
  --memory-profile "$TMP/minus.machine"
expect_grep "minus.machine:[0-9]*: seed-memmap-bytes: expected a whole number from 1 to [0-9]*, found '-1'" "$TMP/err"
cp "$TMP/configs/machines/icelake-sp.machine" "$TMP/twice.machine"
echo "serial: 0.5" >>"$TMP/twice.machine"
expect_exit 2 "$KSERIES" boot "${common[@]}" --case demo --clock memory \
  --memory-profile "$TMP/twice.machine"
expect_grep "twice.machine:[0-9]*: serial: given twice (first at line [0-9]*)" "$TMP/err"

# nt-ordering: the base makes no non-temporal store (not applicable), the
# ordered series passes with its count, the undrained one fails.
expect_exit 0 "$KSERIES" boot "${common[@]}" --case order
expect_grep "not applicable: no non-temporal stores in the window (8 call(s))" "$TMP/out"
expect_exit 0 "$KSERIES" boot "${common[@]}" --case order --series "$TMP/series/demo/nt"
expect_grep "oracle nt devdax-mem: pass: 32000000 non-temporal stores in 8 call(s)" "$TMP/out"
expect_exit 1 "$KSERIES" boot "${common[@]}" --case order --series "$TMP/series/demo/bug"
expect_grep "non-temporal stores not drained: an ordinary store at memmap_init_compound+0x56 to a line of the non-temporal store at memmap_init_zone_device+0x123 before any fence (24 time(s)), first at the struct page of pfn 0x240200 (+0x0)" "$TMP/out"
# A profile given without --clock memory is still the profile of a case
# that reads the plugin (it was icelake-sp's, silently, locked-orders-nt
# and all: seen on a real kernel, 2026-12-06).
sed 's/^serial: .*/serial: 0.25/' "$TMP/configs/machines/icelake-sp.machine" >"$TMP/mine.machine"
expect_exit 0 "$KSERIES" boot "${common[@]}" --case order --series "$TMP/series/demo/nt" \
  --memory-profile "$TMP/mine.machine"
expect_grep "memory model mine: mine scaled" "$TMP/err"

# The gate's HTML page and KCIDB name the clock and the profile too.
mkdir -p "$TMP/configs/matrices"
printf 'cell: toy demo setups=devdax-mem\n' >"$TMP/configs/matrices/mem.matrix"
expect_exit 0 "$KSERIES" gate --workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases" \
  --tree "$repo" --base "$base" --accel tcg --matrix mem --series "$TMP/series/demo/nt" --clock memory \
  --html "$TMP/g.html" --kcidb "$TMP/g.json" --junit "$TMP/g.xml"
grep -q "clock memory; memory model icelake-sp scaled 1/" "$TMP/g.html" || fail "no memory model in the HTML page"
# ... and so does the gate's JUnit, in the timing cell's testcase (its
# system-out: junit-10.xsd has no testcase properties).
expect_grep '^clock=memory$' "$TMP/g.xml"
expect_grep '^memory_model=icelake-sp scaled 1/50 (' "$TMP/g.xml"
python3 - "$TMP/g.json" <<'PY' || fail "no clock or memory model in the KCIDB tests"
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
timed = [t for t in tests if "memory_model" in t.get("misc", {})]
assert timed, "no test names a memory model"
assert all(t["misc"]["clock"] == "memory" for t in timed), timed
assert all(t["misc"]["memory_model"].startswith("icelake-sp scaled 1/") for t in timed), timed
PY
# --resume reuses a memory-clock cell only under the same profile: the
# figures decide its verdict.
run=$(sed -n 's/^run directory //p' "$TMP/out" | tail -1)
[ -d "$run" ] || fail "no gate run directory in the output"
gate_again=("$KSERIES" gate --workdir "$TMP/wd" --configs "$TMP/configs" --testcases "$TMP/cases"
            --tree "$repo" --base "$base" --accel tcg --matrix mem --series "$TMP/series/demo/nt"
            --clock memory --resume "$run")
expect_exit 0 "${gate_again[@]}"
expect_grep "toy demo: pass (reused from the resumed run)" "$TMP/err"
sed 's/^serial: .*/serial: 0.5/' "$TMP/configs/machines/icelake-sp.machine" >"$TMP/other.machine"
expect_exit 0 "${gate_again[@]}" --memory-profile "$TMP/other.machine"
expect_grep "toy demo: not reused from the resumed run" "$TMP/err"
echo "memory clock and nt-ordering: as expected"
