# ci/memmap-replica on a small memmap: the replica runs natively and under
# qemu-x86_64 with the memcost plugin, and what the plugin counts per struct
# page is what the series' three inits do (the slow path reads each line for
# ownership and stores 18 times a 64-byte page; the template copy 8 stores;
# the movnti copy reads nothing and writes every line whole), so that the
# model is fed the replica's real traffic. The tables name every pair.
source "$(dirname "$0")/lib.bash"
command -v qemu-x86_64 >/dev/null || { echo "skipped: no qemu-x86_64 (qemu-user)"; exit 77; }
command -v gcc >/dev/null || { echo "skipped: no gcc"; exit 77; }
plugin=$(dirname "$KSERIES")/memcost.so
[ -f "$plugin" ] || fail "no plugin at $plugin"
expect_exit 0 "$SRC/ci/memmap-replica" --pages 8192 --qemu-pages 8192 --resident-pages 2048 \
  --rounds 2 --plugin "$plugin" --out "$TMP/run" --write-profile "$TMP/host.machine"
for pair in tmpl64/slow64 tmpl80/slow80 tmpl96/slow96 nt64/tmpl64 nt80/tmpl80 nt96/tmpl96 \
            nt64/slow64 nt80/slow80 nt96/slow96; do
  expect_grep "^$pair " "$TMP/out"
done
expect_grep "^largest error, the two-share model: .* over the 8 held-out ratios" "$TMP/out"
python3 - "$TMP/run/replica.json" <<'PY'
import json, sys
costs = json.load(open(sys.argv[1]))["costs"]
def near(job, key, want, slack):
    got = costs[job][key]
    if abs(got - want) > slack:
        sys.exit(f"{job} {key}: {got:.2f} a struct page, expected {want} (+-{slack})")
for size in (64, 80, 96):
    for job in (f"slow{size}", f"tmpl{size}"):
        near(job, "dram_read", size, 2)   # every line read for ownership
        near(job, "dram_write", size, 2)  # and written back
    near(f"nt{size}", "dram_read", 0, 1)  # movnti reads nothing
    near(f"nt{size}", "dram_write", size, 2)
    near(f"nt{size}", "nt_stores", size / 8, 0.1)
    near(f"nt{size}", "stores", 0, 0.1)
    near(f"tmpl{size}", "stores", size / 8, 0.1)  # GCC's inline copy: a store a word
near("slow64", "stores", 18, 0.5)
near("read", "dram_write", 0, 1)
PY
# The host's profile it writes has every key a profile has, once.
grep -q "^read-gbps: " "$TMP/host.machine" || fail "no read-gbps in the written profile"
python3 - "$TMP/host.machine" <<'PY'
import sys
keys = [l.split(":")[0] for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
want = {"l1d", "l2", "llc", "wc-buffers", "frequency-ghz", "ipc", "read-gbps", "write-gbps",
        "serial", "locked-orders-nt", "seed-memmap-bytes"}
if set(keys) != want or len(keys) != len(want):
    sys.exit(f"the written profile's keys: {keys}")
PY
echo "memmap replica: the plugin's counts are the inits' own"
