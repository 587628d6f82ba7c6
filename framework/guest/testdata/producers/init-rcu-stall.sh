#!/bin/busybox sh
# Fixture producer (RCU stall): fsdax map=dev bind of the 2 GiB legacy pmem
# with the page_ref_set tracepoint on and a stacktrace trigger on every event,
# so memmap_init_zone_device() (no cond_resched, PREEMPT_NONE) keeps a CPU
# for many seconds; boot with rcupdate.rcu_cpu_stall_timeout=3. A background
# loop creating and deleting tmpfs files keeps RCU grace periods coming (an
# idle system starts none, and without one no stall is reported). The loop is
# pinned to CPU 1 and the bind to CPU 0: with PREEMPT_NONE a loop that lands
# on the binding CPU never runs, and no stall is seen.
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing
ND=/sys/bus/nd; T=/sys/kernel/tracing
echo namespace0.0 > $ND/drivers/nd_pmem/unbind
PFN=$(cat $ND/devices/region0/pfn_seed)
cat /proc/sys/kernel/random/uuid > $ND/devices/$PFN/uuid
echo pmem > $ND/devices/$PFN/mode
echo 2097152 > $ND/devices/$PFN/align
echo namespace0.0 > $ND/devices/$PFN/namespace
echo stacktrace > $T/events/page_ref/page_ref_set/trigger
echo 1 > $T/events/page_ref/page_ref_set/enable
mount -t tmpfs tmpfs /tmp
taskset 2 sh -c 'while :; do touch /tmp/a /tmp/b; rm /tmp/a /tmp/b; done' &
echo "rcu-stall fixture: binding $PFN with page_ref_set + stacktrace trigger"
taskset 1 sh -c "echo $PFN > $ND/drivers/nd_pmem/bind"
echo 0 > $T/events/page_ref/page_ref_set/enable
echo "rcu-stall fixture: bind returned, powering off"
poweroff -f
