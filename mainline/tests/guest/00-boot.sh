# The guest of the 7.3 line came up as the other tests need it.

check "debugfs mounted" grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
expect_eq "CPUs 0-1 online" "$(cat /sys/devices/system/cpu/online)" "0-1"
check "kernel is 7.3" sh -c 'uname -r | grep -q "^7\.3\."'
