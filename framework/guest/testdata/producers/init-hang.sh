#!/bin/busybox sh
# Fixture producer (hung guest): boots like the kseries /init, then never
# powers off; the host's timeout has to kill QEMU.
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo "hang fixture: init is running, now sleeping forever"
while :; do sleep 3600; done
