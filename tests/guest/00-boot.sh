# The guest came up the way every other test relies on.

check "proc mounted" test -r /proc/meminfo
check "sysfs mounted" test -d /sys/kernel/mm
check "debugfs mounted" grep -q ' /sys/kernel/debug debugfs ' /proc/mounts

want_cpus=2
got_cpus=$(grep -c '^processor' /proc/cpuinfo)
expect_eq "$want_cpus CPUs online" "$got_cpus" "$want_cpus"
# "smp: Brought up 1 node, 2 CPUs" may have left the log buffer by now
# (KASAN's suite prints thousands of lines): ask sysfs instead.
expect_eq "CPUs 0-1 online" "$(cat /sys/devices/system/cpu/online)" "0-$((want_cpus - 1))"

check "kernel is 6.1" sh -c 'uname -r | grep -q "^6\.1\."'
