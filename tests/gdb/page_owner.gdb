# The GDB command lx-dump-page-owner (scripts/gdb/linux/page_owner.py)
# against the kernel itself: an ARCH=um kernel with debug info and
# page_owner=on stops once boot is done (kunit_run_all_tests()); then, for
# each of the next 8 page allocations (the alloc_tag KUnit suite runs and
# allocates pages), GDB takes the page, order and GFP
# mask from __set_page_owner()'s arguments, the handle page_owner stores
# from save_stack()'s return value and the pfn from the page's place in
# mem_map (UML is FLATMEM, pfn 0 at mem_map), lets the allocation finish
# and runs lx-dump-page-owner --pfn PFN.  A case passes when the command
# says the page is allocated, prints its pfn, order and GFP mask, and
# prints the frames lx-stack-depot-lookup prints for that handle.  Then
# bad arguments must be refused, and the walk over every page
# (lx-dump-page-owner alone) must list the last page checked.  Prints
#   gdb-page_owner: N checked, M ok
# Run by scripts/check-gdb.sh (make check-wide, step gdb).
set pagination off
set confirm off
set print symbol-loading off
handle SIGSEGV nostop noprint pass
handle SIGUSR1 nostop noprint pass
handle SIGALRM nostop noprint pass
handle SIGVTALRM nostop noprint pass
handle SIGIO nostop noprint pass
handle SIGWINCH nostop noprint pass
source vmlinux-gdb.py
break kunit_run_all_tests
run mem=256M page_owner=on kunit.enable=1 kunit.filter_glob=alloc_tag console=tty kunit_shutdown=halt
delete
python
import gdb, re

def frames_of(text):
    return [l.strip() for l in text.splitlines() if l.startswith(" ")]

checked = ok = 0
last_pfn = None
bp = gdb.Breakpoint("__set_page_owner")
for i in range(8):
    # Allocations made while page_owner saves this one's stack (the depot
    # growing) stop nowhere: the breakpoint is off until the next round.
    bp.enabled = True
    gdb.execute("continue", to_string=True)
    bp.enabled = False
    page = gdb.parse_and_eval("page")
    order = int(gdb.parse_and_eval("order"))
    gfp = int(gdb.parse_and_eval("gfp_mask"))
    pfn = int(gdb.parse_and_eval("page - mem_map"))
    gdb.execute("tbreak save_stack", to_string=True)
    gdb.execute("continue", to_string=True)
    gdb.execute("finish", to_string=True)
    handle = int(gdb.parse_and_eval("$")) & 0xffffffff
    gdb.execute("finish", to_string=True)
    checked += 1
    try:
        out = gdb.execute("lx-dump-page-owner --pfn %d" % pfn, to_string=True)
    except gdb.error as e:
        print("pfn %d: lx-dump-page-owner failed: %s: MISMATCH" % (pfn, e))
        continue
    want = gdb.execute("lx-stack-depot-lookup %d" % handle, to_string=True)
    why = []
    if "page_owner tracks the page as allocated" not in out:
        why.append("not tracked as allocated")
    if ("PFN: %d, Flags: " % pfn) not in out:
        why.append("no PFN line")
    if ("via order %d, gfp_mask: %#x, " % (order, gfp)) not in out:
        why.append("not order %d, gfp_mask %#x" % (order, gfp))
    got_frames = frames_of(out.split("page_owner free stack trace missing")[0]
                           .split("page last free stack trace:")[0])
    if not frames_of(want) or got_frames != frames_of(want):
        why.append("frames differ from handle %#x's" % handle)
    print("pfn %d order %d handle %#x: %s" % (pfn, order, handle,
          "ok" if not why else "MISMATCH: " + ", ".join(why)))
    if why:
        print(out)
    else:
        ok += 1
        last_pfn = pfn
gdb.execute("delete", to_string=True)

# Bad input is refused with a message, and nothing is printed.
for bad in ("--pfn", "--pfn 1 2", "--page 1", "--pfn %d" % (int(gdb.parse_and_eval("max_pfn")) + 1)):
    checked += 1
    try:
        gdb.execute("lx-dump-page-owner " + bad, to_string=True)
        print("lx-dump-page-owner %s: accepted: MISMATCH" % bad)
    except gdb.error as e:
        print("lx-dump-page-owner %s: refused (%s): ok" % (bad, e))
        ok += 1

# The walk over every page lists the page checked last, once.
checked += 1
if last_pfn is None:
    print("walk: no page checked: MISMATCH")
else:
    out = gdb.execute("lx-dump-page-owner", to_string=True)
    n = out.count("\nPFN: %d, Flags: " % last_pfn)
    blocks = out.count("Page allocated via order ")
    print("walk: %d allocations, pfn %d listed %d times: %s" %
          (blocks, last_pfn, n, "ok" if n == 1 and blocks > 100 else "MISMATCH"))
    ok += n == 1 and blocks > 100
print("gdb-page_owner: %d checked, %d ok" % (checked, ok))
end
kill
quit
