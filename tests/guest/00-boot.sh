# The guest came up the way every other test relies on.

check "proc mounted" test -r /proc/meminfo
check "sysfs mounted" test -d /sys/kernel/mm
check "debugfs mounted" grep -q ' /sys/kernel/debug debugfs ' /proc/mounts

want_cpus=2
got_cpus=$(grep -c '^processor' /proc/cpuinfo)
expect_eq "$want_cpus CPUs online" "$got_cpus" "$want_cpus"
check "smp brought up both CPUs" sh -c "dmesg | grep -q 'smp: Brought up 1 node, $want_cpus CPUs'"

check "kernel is 6.1" sh -c 'uname -r | grep -q "^6\.1\."'
