# The GDB command lx-stack-depot-lookup (scripts/gdb/linux/stackdepot.py)
# against the kernel itself: an ARCH=um kernel with debug info runs the
# stackdepot KUnit suite under GDB; at each of the first 40 calls of
# stack_depot_fetch() the command decodes the handle, then the call's own
# result is compared: the same frames, or no frame where the command
# finds no record (a 0 handle, a stale or evicted one).  The first handle
# with a record is also looked up under mainline's name for the command,
# lx-stack_depot_lookup, which must print the same.  Prints
#   gdb-stackdepot: N checked, M ok, K with no record
# Run by scripts/check-gdb.sh (make check-wide, step gdb), from the build
# directory, which holds vmlinux-gdb.py.
set pagination off
set confirm off
set print symbol-loading off
# UML's own signals.
handle SIGSEGV nostop noprint pass
handle SIGUSR1 nostop noprint pass
handle SIGALRM nostop noprint pass
handle SIGVTALRM nostop noprint pass
handle SIGIO nostop noprint pass
handle SIGWINCH nostop noprint pass
source vmlinux-gdb.py
break stack_depot_fetch
run mem=1G kunit.enable=1 kunit.filter_glob=stackdepot* stack_depot_max_size=8M console=tty kunit_shutdown=halt
python
import gdb, re
checked = ok = none = alias = 0
for i in range(40):
    if i:
        gdb.execute("continue", to_string=True)
    handle = int(gdb.parse_and_eval("handle")) & 0xffffffff
    outp = gdb.parse_and_eval("entries")
    try:
        out = gdb.execute("lx-stack-depot-lookup %d" % handle, to_string=True)
        err = same = None
        # Mainline's name for the command prints the same.
        if not alias:
            alias = 1
            same = gdb.execute("lx-stack_depot_lookup %d" % handle,
                               to_string=True) == out
    except gdb.error as e:
        out, err = "", str(e)
    gdb.execute("finish", to_string=True)
    nr = int(gdb.parse_and_eval("$"))
    checked += 1
    if err:
        none += 1
        good = nr == 0
        print("handle %#x: %s; stack_depot_fetch(): %d frames: %s" %
              (handle, err, nr, "ok" if good else "MISMATCH"))
    else:
        addrs = [int(m, 16) for m in re.findall(r"^  (0x[0-9a-f]+)", out, re.M)]
        kern = [int(outp.dereference()[j]) & 0xffffffffffffffff
                for j in range(nr)]
        good = addrs == kern
        if i < 2 or not good:
            print(out.rstrip())
        if same is not None:
            print("lx-stack_depot_lookup: %s" % ("same" if same else "DIFFERENT"))
            good = good and same
        print("handle %#x: %d frames, stack_depot_fetch(): %d: %s" %
              (handle, len(addrs), nr, "ok" if good else "MISMATCH"))
    ok += good
if not alias:
    print("lx-stack_depot_lookup: never tried")
    ok -= 1
print("gdb-stackdepot: %d checked, %d ok, %d with no record" % (checked, ok, none))
end
kill
quit
