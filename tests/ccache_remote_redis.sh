# The shared build cache between shards: ccache's own remote storage on a
# Redis server (what docs/sharding.md deploys). A local
# redis-server (127.0.0.1, a free port, no persistence) serves two "shards":
# each compiles the same small C tree (with -g and an absolute -I, as kernel
# builds do) in its own directory with an empty CCACHE_DIR. The first misses
# and fills Redis; the second, with CCACHE_BASEDIR at its work directory and
# CCACHE_NOHASHDIR, gets every object from Redis (remote hits, identical
# objects). A third without those settings gets none: they are what makes
# work directories at different paths share the cache.
# kseries passes CCACHE_* from its environment to make (framework/kernel/kernel_build.cc
# sets only CCACHE_DIR and CCACHE_MAXSIZE), so a shard's kernel builds use the
# same settings.
source "$(dirname "$0")/lib.bash"
skip_unless_installed redis-server redis-cli ccache
ccache --version | grep -q 'redis-storage' || { echo "skipped: this ccache has no redis-storage"; exit 77; }
port=$(free_ports 1)
mkdir -p "$TMP/redis"
redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$TMP/redis" \
  >"$TMP/redis/log" 2>&1 &
redis_pid=$!
at_exit "kill $redis_pid; wait $redis_pid"
redis_up() { [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; }
wait_until 10 redis_up || { cat "$TMP/redis/log"; fail "redis-server did not answer on port $port within 10 s"; }
export CCACHE_CONFIGPATH=$TMP/ccache.conf  # nothing from /etc or the user
: >"$CCACHE_CONFIGPATH"
export CCACHE_REMOTE_STORAGE=${KSERIES_TEST_REMOTE:-redis://127.0.0.1:$port}
files=(init main page alloc util)

# shard WD [VAR=VALUE...]: the tree compiled in WD/src with an empty
# WD/ccache; prints "remote hits N, misses M".
shard() {
  local wd=$1; shift
  mkdir -p "$wd/src/include"
  echo '#define PAGES 512' >"$wd/src/include/pages.h"
  local f
  for f in "${files[@]}"; do
    printf '#include "pages.h"\nint %s_pages(int n) { return n * PAGES + %d; }\n' "$f" "${#f}" \
      >"$wd/src/$f.c"
    (cd "$wd/src" && env CCACHE_DIR="$wd/ccache" "$@" \
      ccache gcc -g -O2 -I"$wd/src/include" -c "$f.c" -o "$f.o")
  done
  CCACHE_DIR=$wd/ccache ccache --print-stats >"$wd/stats"
  echo "remote hits $(awk '$1 == "remote_storage_hit" {print $2}' "$wd/stats")," \
    "misses $(awk '$1 == "remote_storage_miss" {print $2}' "$wd/stats")"
}
shared=(CCACHE_BASEDIR="$TMP/wd1" CCACHE_NOHASHDIR=true)
first=$(shard "$TMP/wd1" "${shared[@]}")
echo "first shard:  $first"
[ "$first" = "remote hits 0, misses 5" ] || fail "first shard: $first (want 0 hits, 5 misses)"
[ "$(redis-cli -p "$port" dbsize)" -ge 5 ] || fail "nothing stored in Redis"
second=$(shard "$TMP/wd2" CCACHE_BASEDIR="$TMP/wd2" CCACHE_NOHASHDIR=true)
echo "second shard: $second (its own empty CCACHE_DIR, another path)"
[ "$second" = "remote hits 5, misses 0" ] || fail "second shard: $second (want 5 remote hits)"
for f in "${files[@]}"; do
  cmp -s "$TMP/wd1/src/$f.o" "$TMP/wd2/src/$f.o" || fail "$f.o from Redis differs from the compiled one"
done
third=$(shard "$TMP/wd3")
echo "third shard:  $third (no CCACHE_BASEDIR: absolute paths differ)"
[ "$third" = "remote hits 0, misses 5" ] || fail "third shard: $third"
echo "PASS"
