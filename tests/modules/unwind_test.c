// SPDX-License-Identifier: GPL-2.0
/*
 * Drives deferred user-space unwinding for tests/guest/54-unwind.sh, from
 * the user program tests/tools/unwind_chain.c.  In /sys/kernel/debug/unwind_test:
 *
 *   request  write "N": N requests for the writing task, in this one
 *            kernel entry; "N kill": then SIGKILL to itself (it exits
 *            with the requests pending); "N cancel": N requests with a
 *            second work, cancelled before the return to user space;
 *            "N again": the callback requests once more (after the
 *            walk, in the same entry: it returns 1; its line's equal=1
 *            says unwind_deferred_entry_stack() is the callback's stack); "N nmi" (x86): the first request
 *            from an NMI this CPU sends itself, then N from the task.
 *            Request lines of NMI requests end with nmi=1 (nmi=-1: the
 *            NMI did not arrive).
 *   results  read: one line per request batch and per callback since the
 *            last "reset" written to it:
 *              request n=N ret=R cookie=C equal=E
 *              callback cookie=C pid=P nr=K stack A1 A2 ...
 *              cancelled-callbacks=N
 *   timer    write "start TGID": an hrtimer on this CPU, every tick,
 *            requests an unwind when it interrupts a thread of TGID;
 *            "stop".  Read: fired=F requested=R callbacks=C cookies=D
 *            zero=Z (D: callbacks whose cookie differs from the previous
 *            one, the entries served; Z: callbacks with a 0 cookie).
 */
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unwind_deferred.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#define MAX_RECORDS	64
#define MAX_FRAMES	64

struct record {
	bool callback;
	u64 cookie;
	int n, ret, equal, nmi;
	pid_t pid;
	unsigned int nr;
	unsigned long entries[MAX_FRAMES];
};

static DEFINE_MUTEX(lock);
static struct record *records;
static unsigned int nr_records;
static atomic_t cancelled_callbacks;
static bool again;
static struct unwind_work work, timer_work, cancel_uwork;
static struct dentry *dir;

static struct hrtimer timer;
static pid_t timer_tgid;
static atomic_t fired, requested, timer_callbacks, timer_cookies, timer_zero;
static u64 timer_last_cookie;

static struct record *new_record(void)
{
	if (nr_records == MAX_RECORDS)
		return NULL;
	return memset(&records[nr_records++], 0, sizeof(*records));
}

static void test_callback(struct unwind_work *w,
			  const struct unwind_stacktrace *trace, u64 cookie)
{
	struct record *r;
	u64 again_cookie = 0;
	int ret = 0;

	mutex_lock(&lock);
	r = new_record();
	if (r) {
		r->callback = true;
		r->cookie = cookie;
		r->pid = task_pid_nr(current);
		r->nr = min_t(unsigned int, trace->nr, MAX_FRAMES);
		memcpy(r->entries, trace->entries, r->nr * sizeof(long));
	}
	if (again) {
		again = false;
		ret = unwind_deferred_request(&work, &again_cookie);
		r = new_record();
		if (r) {
			r->n = 1;
			r->ret = ret;
			r->cookie = again_cookie;
			r->equal = unwind_deferred_entry_stack() == trace->handle;
			r->pid = task_pid_nr(current);
		}
	}
	mutex_unlock(&lock);
}

#ifdef CONFIG_X86_LOCAL_APIC
/* Armed with the task to request for; the NMI handler disarms it. */
static struct task_struct *nmi_task;
static u64 nmi_cookie;
static int nmi_ret;
static bool nmi_registered;

static int test_nmi(unsigned int type, struct pt_regs *regs)
{
	struct task_struct *task = READ_ONCE(nmi_task);

	if (!task || task != current || cmpxchg(&nmi_task, task, NULL) != task)
		return NMI_DONE;
	nmi_ret = unwind_deferred_request(&work, &nmi_cookie);
	return NMI_HANDLED;
}

/* An NMI to this CPU, whose handler requests for current: 1 if it came. */
static int request_from_nmi(u64 *cookie, int *ret)
{
	unsigned long timeout = jiffies + HZ;

	if (!nmi_registered)
		return -1;
	preempt_disable();
	WRITE_ONCE(nmi_task, current);
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
	while (READ_ONCE(nmi_task) && time_before(jiffies, timeout))
		cpu_relax();
	preempt_enable();
	if (xchg(&nmi_task, NULL))
		return -1;
	*cookie = nmi_cookie;
	*ret = nmi_ret;
	return 1;
}
#else
static int request_from_nmi(u64 *cookie, int *ret)
{
	return -1;
}
#endif

static void cancel_callback(struct unwind_work *w,
			    const struct unwind_stacktrace *trace, u64 cookie)
{
	atomic_inc(&cancelled_callbacks);
}

static void timer_callback(struct unwind_work *w,
			   const struct unwind_stacktrace *trace, u64 cookie)
{
	atomic_inc(&timer_callbacks);
	if (!cookie)
		atomic_inc(&timer_zero);
	if (cookie != timer_last_cookie)
		atomic_inc(&timer_cookies);
	timer_last_cookie = cookie;
}

static ssize_t request_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char buf[32], what[8] = "";
	u64 first = 0, cookie = 0;
	int n, i, ret = 0, equal = 1, nmi = 0;
	struct record *r;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sscanf(buf, "%d %7s", &n, what) < 1 || n < 1 || n > 1000)
		return -EINVAL;
	if (!strcmp(what, "cancel")) {
		if (unwind_deferred_init(&cancel_uwork, cancel_callback))
			return -EBUSY;
		for (i = 0; i < n; i++)
			unwind_deferred_request(&cancel_uwork, &cookie);
		unwind_deferred_cancel(&cancel_uwork);
		return len;
	}
	if (!strcmp(what, "nmi")) {
		nmi = request_from_nmi(&cookie, &ret);
		if (nmi > 0) {
			mutex_lock(&lock);
			r = new_record();
			if (r) {
				r->n = 1;
				r->ret = ret;
				r->cookie = cookie;
				r->equal = 1;
				r->nmi = 1;
				r->pid = task_pid_nr(current);
			}
			mutex_unlock(&lock);
		}
	}
	for (i = 0; i < n; i++) {
		ret = unwind_deferred_request(&work, &cookie);
		if (ret < 0)
			break;
		if (!i)
			first = cookie;
		else if (cookie != first)
			equal = 0;
	}
	mutex_lock(&lock);
	again = !strcmp(what, "again");
	r = new_record();
	if (r) {
		r->n = n;
		r->ret = ret;
		r->cookie = first;
		r->equal = equal;
		r->pid = task_pid_nr(current);
		r->nmi = nmi < 0 ? -1 : 0;
	}
	mutex_unlock(&lock);
	if (!strcmp(what, "kill"))
		send_sig(SIGKILL, current, 0);
	return len;
}

static int results_show(struct seq_file *m, void *v)
{
	unsigned int i, j;

	mutex_lock(&lock);
	for (i = 0; i < nr_records; i++) {
		struct record *r = &records[i];

		if (!r->callback) {
			seq_printf(m, "request n=%d ret=%d cookie=%#llx equal=%d pid=%d nmi=%d\n",
				   r->n, r->ret, r->cookie, r->equal, r->pid, r->nmi);
			continue;
		}
		seq_printf(m, "callback cookie=%#llx pid=%d nr=%u stack", r->cookie,
			   r->pid, r->nr);
		for (j = 0; j < r->nr; j++)
			seq_printf(m, " %#lx", r->entries[j]);
		seq_putc(m, '\n');
	}
	seq_printf(m, "cancelled-callbacks=%d\n", atomic_read(&cancelled_callbacks));
	mutex_unlock(&lock);
	return 0;
}

static int results_open(struct inode *inode, struct file *file)
{
	return single_open(file, results_show, NULL);
}

static ssize_t results_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	mutex_lock(&lock);
	nr_records = 0;
	atomic_set(&cancelled_callbacks, 0);
	mutex_unlock(&lock);
	return len;
}

static enum hrtimer_restart timer_fn(struct hrtimer *t)
{
	u64 cookie;

	atomic_inc(&fired);
	if (current->tgid == READ_ONCE(timer_tgid) &&
	    !unwind_deferred_request(&timer_work, &cookie))
		atomic_inc(&requested);
	hrtimer_forward_now(t, ns_to_ktime(TICK_NSEC));
	return HRTIMER_RESTART;
}

static ssize_t timer_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	char buf[32];
	int tgid;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sscanf(buf, "start %d", &tgid) == 1) {
		hrtimer_cancel(&timer);
		atomic_set(&fired, 0);
		atomic_set(&requested, 0);
		atomic_set(&timer_callbacks, 0);
		atomic_set(&timer_cookies, 0);
		atomic_set(&timer_zero, 0);
		timer_last_cookie = 0;
		WRITE_ONCE(timer_tgid, tgid);
		hrtimer_start(&timer, ns_to_ktime(TICK_NSEC), HRTIMER_MODE_REL_PINNED_HARD);
	} else if (!strncmp(buf, "stop", 4)) {
		hrtimer_cancel(&timer);
		WRITE_ONCE(timer_tgid, 0);
	} else {
		return -EINVAL;
	}
	return len;
}

static int timer_show(struct seq_file *m, void *v)
{
	seq_printf(m, "fired=%d requested=%d callbacks=%d cookies=%d zero=%d\n",
		   atomic_read(&fired), atomic_read(&requested),
		   atomic_read(&timer_callbacks), atomic_read(&timer_cookies),
		   atomic_read(&timer_zero));
	return 0;
}

static int timer_open(struct inode *inode, struct file *file)
{
	return single_open(file, timer_show, NULL);
}

static const struct file_operations request_fops = {
	.write = request_write,
};

static const struct file_operations results_fops = {
	.open = results_open,
	.read = seq_read,
	.write = results_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations timer_fops = {
	.open = timer_open,
	.read = seq_read,
	.write = timer_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init unwind_test_init(void)
{
	int ret;

	records = kcalloc(MAX_RECORDS, sizeof(*records), GFP_KERNEL);
	if (!records)
		return -ENOMEM;
	hrtimer_init(&timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	timer.function = timer_fn;
	ret = unwind_deferred_init(&work, test_callback);
	if (!ret) {
		ret = unwind_deferred_init(&timer_work, timer_callback);
		if (ret)
			unwind_deferred_cancel(&work);
	}
	if (ret) {
		kfree(records);
		return ret;
	}
#ifdef CONFIG_X86_LOCAL_APIC
	nmi_registered = !register_nmi_handler(NMI_LOCAL, test_nmi, 0, "unwind_test");
#endif
	dir = debugfs_create_dir("unwind_test", NULL);
	debugfs_create_file("request", 0200, dir, NULL, &request_fops);
	debugfs_create_file("results", 0600, dir, NULL, &results_fops);
	debugfs_create_file("timer", 0600, dir, NULL, &timer_fops);
	return 0;
}

static void __exit unwind_test_exit(void)
{
	debugfs_remove_recursive(dir);
#ifdef CONFIG_X86_LOCAL_APIC
	if (nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "unwind_test");
#endif
	hrtimer_cancel(&timer);
	unwind_deferred_cancel(&timer_work);
	unwind_deferred_cancel(&work);
	kfree(records);
}

module_init(unwind_test_init);
module_exit(unwind_test_exit);
MODULE_LICENSE("GPL");
