// SPDX-License-Identifier: GPL-2.0
/*
 * memmap_dump: dumps the raw struct pages of a ZONE_DEVICE range, for the
 * kseries memmap oracle (format: README.md next to this file).
 *
 * A kretprobe on memmap_init_zone_device() records each call (range, pgmap,
 * altmap, whether the page_ref_set tracepoint was on) and, when `poison` is
 * set, fills the struct pages that call is about to initialise with a
 * pattern, at entry: the memmap is populated and not yet in use then (with
 * CONFIG_DEBUG_VM the kernel itself poisons it at the same point, in
 * sparse_add_section()). A page the init forgets therefore reads back as
 * poison, never as the previous bind's bytes. `unwritten_index` (>= 0)
 * re-poisons that one page (index within the initialised range) after the
 * call returns: a deliberately "forgotten" page, to prove the host sees it.
 *
 * /sys/kernel/debug/memmap_dump/dump: the binary dump of the last call's
 * device range (or dump_start_pfn/dump_nr_pages), snapshot at open time
 * while holding a reference on the dev_pagemap (the device must be bound).
 * /sys/kernel/debug/memmap_dump/last: the last call, as text.
 *
 * Without a device (boot-time memmap, HugeTLB): dump_range dumps
 * dump_start_pfn/dump_nr_pages of ordinary memory, and huge_heads lists the
 * HugeTLB folios (head PFN, order) found by walking every online node.
 *
 * MEMORY_DEVICE_PRIVATE (CONFIG_DEVICE_PRIVATE, as lib/test_hmm.c does it):
 * writing "SHIFT NR_PAGES" to private maps NR_PAGES of unaddressable device
 * memory with memremap_pages() at vmemmap_shift SHIFT (a free physical
 * range from request_free_mem_region(), kept across re-creates so the PFNs
 * stay the same), "destroy" unmaps it; reading private gives the range and
 * how long memremap_pages() took. The kretprobe sees that init like any
 * other, so dump then dumps the private range.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/kmsan-checks.h>
#include <linux/debugfs.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/vmalloc.h>
#include <linux/page_ref.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/ioport.h>
#include <linux/ktime.h>
#include <linux/hugetlb.h>
#include <linux/nodemask.h>
#include <linux/seq_file.h>
#include <linux/pageblock-flags.h>

#define MMD_MAGIC "KSMMDMP1"
#define MMD_VERSION 1
#define MMD_ABSENT (~0ULL)
#define MMD_POISON_BYTE 0xc3

static bool poison = true;
module_param(poison, bool, 0644);
MODULE_PARM_DESC(poison, "fill the struct pages of each memmap_init_zone_device() range with 0xc3 at entry");
static long unwritten_index = -1;
module_param(unwritten_index, long, 0644);
MODULE_PARM_DESC(unwritten_index, "re-poison this page (index in the init range) after the init: a forgotten page");
static unsigned long dump_start_pfn;
module_param(dump_start_pfn, ulong, 0644);
MODULE_PARM_DESC(dump_start_pfn, "first PFN to dump (0: the last init call's device range)");
static unsigned long dump_nr_pages;
module_param(dump_nr_pages, ulong, 0644);
MODULE_PARM_DESC(dump_nr_pages, "pages to dump (0: to the end of the device range)");

/*
 * sizeof(struct page) of the kernel this module is built against, in a
 * section of its own: kseries reads it from the .ko right after the build
 * (a target's "struct-page:" line), without booting the kernel.
 */
static const u64 mmd_sizeof_page __used __section(".kseries.sizeof_page") =
	sizeof(struct page);

/* Header words, in file order (README.md). Append only. */
enum mmd_word {
	W_SIZEOF_PAGE, W_OFF_FLAGS, W_OFF_COMPOUND_HEAD, W_OFF_LRU, W_OFF_MAPPING,
	W_OFF_INDEX, W_OFF_PRIVATE, W_OFF_MAPCOUNT, W_OFF_REFCOUNT, W_OFF_PGMAP,
	W_OFF_ZONE_DEVICE_DATA, W_OFF_MEMCG_DATA, W_OFF_VIRTUAL, W_OFF_LAST_CPUPID,
	W_OFF_FLAGS_1, W_OFF_HEAD_1, W_OFF_LARGE_MAPCOUNT, W_OFF_ENTIRE_MAPCOUNT,
	W_OFF_NR_PAGES_MAPPED, W_OFF_PINCOUNT, W_OFF_FOLIO_NR_PAGES,
	W_OFF_FLAGS_2, W_OFF_HEAD_2, W_OFF_DEFERRED_LIST,
	W_VMEMMAP_BASE, W_DIRECT_MAP_BASE, W_PAGE_SHIFT, W_SECTION_SIZE_BITS,
	W_PFN_SECTION_SHIFT, W_SECTION_IN_PAGE_FLAGS, W_SECTIONS_PGSHIFT,
	W_SECTIONS_MASK, W_NODES_PGSHIFT, W_NODES_MASK, W_ZONES_PGSHIFT,
	W_ZONES_MASK, W_ZONE_DEVICE_IDX, W_PG_RESERVED, W_PG_HEAD,
	W_PGMAP_ADDR, W_PGMAP_TYPE, W_PGMAP_FLAGS, W_VMEMMAP_SHIFT,
	W_RANGE_START_PFN, W_RANGE_END_PFN, W_INIT_START_PFN, W_INIT_END_PFN,
	W_DUMP_START_PFN, W_DUMP_END_PFN, W_ALTMAP_VALID, W_ALTMAP_BASE_PFN,
	W_ALTMAP_RESERVE, W_ALTMAP_FREE, W_INIT_CALLS, W_POISONED,
	W_POISON_BYTE, W_UNWRITTEN_PFN, W_TRACEPOINT_ON_AT_INIT, W_NID,
	W_TAIL_MAPPING, W_OFF_KMSAN_SHADOW, W_OFF_KMSAN_ORIGIN,
	W_COUNT
};

struct mmd_call {
	unsigned long start_pfn, nr_pages;	/* as passed to the function */
	unsigned long init_start_pfn, init_end_pfn;	/* what it initialises */
	unsigned long range_start_pfn, range_end_pfn;
	unsigned long altmap_base_pfn, altmap_reserve, altmap_free;
	struct dev_pagemap *pgmap;
	unsigned long pgmap_type, pgmap_flags, vmemmap_shift;
	unsigned long unwritten_pfn;
	int nid;
	bool altmap_valid, poisoned, tracepoint_on;
};

#ifdef CONFIG_ZONE_DEVICE
#define MMD_ZONE_DEVICE 1
#else
#define MMD_ZONE_DEVICE 0
#endif

static __maybe_unused DEFINE_MUTEX(mmd_lock);	/* guards last/calls against readers */
static struct mmd_call last __maybe_unused;
static unsigned long calls;
static struct dentry *mmd_dir;

#if MMD_ZONE_DEVICE
static int mmd_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mmd_call *c = (struct mmd_call *)ri->data;
	struct zone *zone;
	struct dev_pagemap *pgmap;
	unsigned long end_pfn;

	/* The ftrace trampoline saved REGS in assembly, which KMSAN does not
	 * see: their shadow is whatever the stack held before (a KMSAN
	 * guest reported "uninit-value in mmd_entry", origin xa_load()'s
	 * xas). They are the caller's real arguments; a no-op without KMSAN. */
	kmsan_unpoison_memory(regs, sizeof(*regs));
	/* memmap_init_zone_device(zone, start_pfn, nr_pages, pgmap), read
	 * portably (x86-64: di, si, dx, cx; arm64: x0..x3). */
	zone = (struct zone *)regs_get_kernel_argument(regs, 0);
	pgmap = (struct dev_pagemap *)regs_get_kernel_argument(regs, 3);

	memset(c, 0, sizeof(*c));
	c->start_pfn = regs_get_kernel_argument(regs, 1);
	c->nr_pages = regs_get_kernel_argument(regs, 2);
	c->pgmap = pgmap;
	c->unwritten_pfn = MMD_ABSENT;
	if (!pgmap || !zone)
		return 0;
	end_pfn = c->start_pfn + c->nr_pages;
	c->nid = zone->zone_pgdat->node_id;
	c->pgmap_type = pgmap->type;
	c->pgmap_flags = pgmap->flags;
	c->vmemmap_shift = pgmap->vmemmap_shift;
	c->range_start_pfn = PHYS_PFN(pgmap->range.start);
	c->range_end_pfn = PHYS_PFN(pgmap->range.end + 1);
	c->init_start_pfn = c->start_pfn;
	c->init_end_pfn = end_pfn;
	/* Same as memmap_init_zone_device(): the altmap part is not its job. */
	if (pgmap->flags & PGMAP_ALTMAP_VALID) {
		c->altmap_valid = true;
		c->altmap_base_pfn = pgmap->altmap.base_pfn;
		c->altmap_reserve = pgmap->altmap.reserve;
		c->altmap_free = pgmap->altmap.free;
		c->init_start_pfn = pgmap->altmap.base_pfn + vmem_altmap_offset(&pgmap->altmap);
	}
	c->tracepoint_on = page_ref_tracepoint_active(page_ref_set);
	if (poison && c->init_start_pfn < end_pfn) {
		unsigned long pfn;

		for (pfn = c->init_start_pfn; pfn < end_pfn; pfn++)
			memset(pfn_to_page(pfn), MMD_POISON_BYTE, sizeof(struct page));
		c->poisoned = true;
	}
	return 0;
}

static int mmd_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mmd_call *c = (struct mmd_call *)ri->data;
	long idx = READ_ONCE(unwritten_index);

	if (c->pgmap && idx >= 0 && c->init_start_pfn + idx < c->init_end_pfn) {
		c->unwritten_pfn = c->init_start_pfn + idx;
		memset(pfn_to_page(c->unwritten_pfn), MMD_POISON_BYTE, sizeof(struct page));
	}
	/* No sleeping lock here: readers copy 'last' under mmd_lock, and a
	 * bind never runs concurrently with a dump in the guest script. */
	last = *c;
	calls++;
	return 0;
}

static struct kretprobe mmd_probe = {
	.kp.symbol_name = "memmap_init_zone_device",
	.entry_handler = mmd_entry,
	.handler = mmd_return,
	.data_size = sizeof(struct mmd_call),
	.maxactive = 4,
};
#endif /* MMD_ZONE_DEVICE */

static void mmd_header(u64 *w, const struct mmd_call *c, unsigned long start,
		       unsigned long end)
{
	int i;

	for (i = 0; i < W_COUNT; i++)
		w[i] = MMD_ABSENT;
	w[W_SIZEOF_PAGE] = sizeof(struct page);
	w[W_OFF_FLAGS] = offsetof(struct page, flags);
	w[W_OFF_COMPOUND_HEAD] = offsetof(struct page, compound_head);
	w[W_OFF_LRU] = offsetof(struct page, lru);
	w[W_OFF_MAPPING] = offsetof(struct page, mapping);
	w[W_OFF_INDEX] = offsetof(struct page, index);
	w[W_OFF_PRIVATE] = offsetof(struct page, private);
	w[W_OFF_MAPCOUNT] = offsetof(struct page, _mapcount);
	w[W_OFF_REFCOUNT] = offsetof(struct page, _refcount);
	w[W_OFF_PGMAP] = offsetof(struct page, pgmap);
	w[W_OFF_ZONE_DEVICE_DATA] = offsetof(struct page, zone_device_data);
#ifdef CONFIG_MEMCG
	w[W_OFF_MEMCG_DATA] = offsetof(struct page, memcg_data);
#endif
#ifdef WANT_PAGE_VIRTUAL
	w[W_OFF_VIRTUAL] = offsetof(struct page, virtual);
#endif
#ifdef LAST_CPUPID_NOT_IN_PAGE_FLAGS
	w[W_OFF_LAST_CPUPID] = offsetof(struct page, _last_cpupid);
#endif
#ifdef CONFIG_KMSAN
	w[W_OFF_KMSAN_SHADOW] = offsetof(struct page, kmsan_shadow);
	w[W_OFF_KMSAN_ORIGIN] = offsetof(struct page, kmsan_origin);
#endif
	/* Folio fields, relative to the start of the tail page that holds them. */
#define TAIL_OFF(field, n) (offsetof(struct folio, field) - (n) * sizeof(struct page))
	w[W_OFF_FLAGS_1] = TAIL_OFF(_flags_1, 1);
	w[W_OFF_HEAD_1] = TAIL_OFF(_head_1, 1);
	w[W_OFF_LARGE_MAPCOUNT] = TAIL_OFF(_large_mapcount, 1);
	w[W_OFF_ENTIRE_MAPCOUNT] = TAIL_OFF(_entire_mapcount, 1);
	w[W_OFF_NR_PAGES_MAPPED] = TAIL_OFF(_nr_pages_mapped, 1);
	w[W_OFF_PINCOUNT] = TAIL_OFF(_pincount, 1);
#ifdef CONFIG_64BIT
	w[W_OFF_FOLIO_NR_PAGES] = TAIL_OFF(_folio_nr_pages, 1);
#endif
	w[W_OFF_FLAGS_2] = TAIL_OFF(_flags_2, 2);
	w[W_OFF_HEAD_2] = TAIL_OFF(_head_2, 2);
	w[W_OFF_DEFERRED_LIST] = TAIL_OFF(_deferred_list, 2);
#undef TAIL_OFF
	w[W_VMEMMAP_BASE] = (u64)(unsigned long)vmemmap;
	w[W_DIRECT_MAP_BASE] = (u64)PAGE_OFFSET;
	w[W_PAGE_SHIFT] = PAGE_SHIFT;
	w[W_SECTION_SIZE_BITS] = SECTION_SIZE_BITS;
	w[W_PFN_SECTION_SHIFT] = PFN_SECTION_SHIFT;
#ifdef SECTION_IN_PAGE_FLAGS
	w[W_SECTION_IN_PAGE_FLAGS] = 1;
#else
	w[W_SECTION_IN_PAGE_FLAGS] = 0;
#endif
	w[W_SECTIONS_PGSHIFT] = SECTIONS_PGSHIFT;
	w[W_SECTIONS_MASK] = SECTIONS_MASK;
	w[W_NODES_PGSHIFT] = NODES_PGSHIFT;
	w[W_NODES_MASK] = NODES_MASK;
	w[W_ZONES_PGSHIFT] = ZONES_PGSHIFT;
	w[W_ZONES_MASK] = ZONES_MASK;
	w[W_PG_RESERVED] = PG_reserved;
	w[W_PG_HEAD] = PG_head;
#if MMD_ZONE_DEVICE
	w[W_ZONE_DEVICE_IDX] = ZONE_DEVICE;
#endif
	w[W_TAIL_MAPPING] = (u64)(unsigned long)TAIL_MAPPING;
	w[W_DUMP_START_PFN] = start;
	w[W_DUMP_END_PFN] = end;
	w[W_INIT_CALLS] = calls;
	w[W_POISON_BYTE] = MMD_POISON_BYTE;
	if (!c)
		return;	/* a range of ordinary memory: no device words */
	w[W_PGMAP_ADDR] = (u64)(unsigned long)c->pgmap;
	w[W_PGMAP_TYPE] = c->pgmap_type;
	w[W_PGMAP_FLAGS] = c->pgmap_flags;
	w[W_VMEMMAP_SHIFT] = c->vmemmap_shift;
	w[W_RANGE_START_PFN] = c->range_start_pfn;
	w[W_RANGE_END_PFN] = c->range_end_pfn;
	w[W_INIT_START_PFN] = c->init_start_pfn;
	w[W_INIT_END_PFN] = c->init_end_pfn;
	w[W_ALTMAP_VALID] = c->altmap_valid;
	if (c->altmap_valid) {
		w[W_ALTMAP_BASE_PFN] = c->altmap_base_pfn;
		w[W_ALTMAP_RESERVE] = c->altmap_reserve;
		w[W_ALTMAP_FREE] = c->altmap_free;
	}
	w[W_POISONED] = c->poisoned;
	w[W_UNWRITTEN_PFN] = c->unwritten_pfn;
	w[W_TRACEPOINT_ON_AT_INIT] = c->tracepoint_on;
	w[W_NID] = c->nid;
}

struct mmd_buf {
	size_t size;
	char data[];
};

/*
 * Snapshots [start, end) into file->private_data: the header (device words
 * from c, none when c is NULL) and the records. One pass into a buffer
 * sized for the worst case (no two neighbours equal), so struct pages that
 * change while we read (free pages next to a HugeTLB folio) cannot make
 * the encoding inconsistent: each record is a copy of what was read.
 */
static int mmd_snapshot(struct file *file, const struct mmd_call *c,
			unsigned long start, unsigned long end)
{
	const size_t head_size = 16 + W_COUNT * sizeof(u64);
	const size_t psz = sizeof(struct page);
	u32 hw[2] = { MMD_VERSION, W_COUNT };
	struct mmd_buf *buf;
	unsigned long pfn;
	size_t pos, cap;

	for (pfn = start; pfn < end; pfn++) {
		if (!pfn_valid(pfn))
			return -ERANGE;
	}
	cap = (end - start + 1) * (2 * sizeof(u64) + psz);
	buf = kvmalloc(sizeof(*buf) + head_size + cap, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf->data, MMD_MAGIC, 8);
	memcpy(buf->data + 8, hw, sizeof(hw));
	mmd_header((u64 *)(buf->data + 16), c, start, end);
	pos = head_size;
	pfn = start;
	while (pfn < end) {
		char *rec = buf->data + pos;
		u64 hdr[2] = { pfn, 1 };

		memcpy(rec + sizeof(hdr), pfn_to_page(pfn), psz);
		while (pfn + hdr[1] < end &&
		       !memcmp(pfn_to_page(pfn + hdr[1]), rec + sizeof(hdr), psz))
			hdr[1]++;
		memcpy(rec, hdr, sizeof(hdr));
		pos += sizeof(hdr) + psz;
		pfn += hdr[1];
		cond_resched();
	}
	{
		u64 hdr[2] = { end, 0 };

		memcpy(buf->data + pos, hdr, sizeof(hdr));
		pos += sizeof(hdr);
	}
	buf->size = pos;
	file->private_data = buf;
	return 0;
}

#if MMD_ZONE_DEVICE
static int mmd_dump_open(struct inode *inode, struct file *file)
{
	struct mmd_call c;
	struct dev_pagemap *live;
	unsigned long start, end;
	int ret;

	mutex_lock(&mmd_lock);
	c = last;
	mutex_unlock(&mmd_lock);
	if (!c.pgmap)
		return -ENODATA;	/* no memmap_init_zone_device() seen yet */
	/* The device range minus the altmap part nobody initialises. */
	start = c.altmap_valid ? c.altmap_base_pfn + c.altmap_reserve : c.range_start_pfn;
	end = c.range_end_pfn;
	if (dump_start_pfn) {
		start = dump_start_pfn;
		end = dump_nr_pages ? start + dump_nr_pages : end;
	} else if (dump_nr_pages && start + dump_nr_pages < end) {
		end = start + dump_nr_pages;
	}
	if (start >= end)
		return -EINVAL;
	/* The memmap exists only while the device is bound: hold the pgmap. */
	live = get_dev_pagemap(start, NULL);
	if (!live)
		return -ENXIO;
	if (live != c.pgmap)
		ret = -ESTALE;	/* rebound since the last init call we saw */
	else
		ret = mmd_snapshot(file, &c, start, end);
	put_dev_pagemap(live);
	return ret;
}
#endif

/*
 * dump_range: dump_start_pfn/dump_nr_pages of ordinary (boot-time) memory.
 * When the range starts with a HugeTLB head (or one page before one), the
 * header's init range and vmemmap_shift give that folio's geometry; its
 * vmemmap_base is the base that holds over the range (without
 * SPARSEMEM_VMEMMAP, not the vmemmap: see below).
 */
static int mmd_range_open(struct inode *inode, struct file *file)
{
	unsigned long start = READ_ONCE(dump_start_pfn), n = READ_ONCE(dump_nr_pages);

	unsigned long pfn;
	struct page *first;
	int ret;

	if (!n || start + n < start)
		return -EINVAL;
	/*
	 * The host finds a struct page's address as vmemmap_base + pfn * size.
	 * Without SPARSEMEM_VMEMMAP each section has its own mem_map, usually
	 * carved in order from one per-node buffer, so over a range of present
	 * sections without holes that still holds with another base. Check it
	 * and give that base; refuse a range where it does not hold.
	 */
	if (!pfn_valid(start))
		return -ERANGE;
	first = pfn_to_page(start);
	for (pfn = start; pfn < start + n; pfn++) {
		if (!pfn_valid(pfn))
			return -ERANGE;
		if (pfn_to_page(pfn) != first + (pfn - start))
			return -EDOM;	/* the memmap is not linear over the range */
	}
	ret = mmd_snapshot(file, NULL, start, start + n);
	if (ret)
		return ret;
	{
		struct mmd_buf *buf = file->private_data;
		u64 *w = (u64 *)(buf->data + 16);

		w[W_VMEMMAP_BASE] = (u64)(unsigned long)first - (u64)start * sizeof(struct page);
	}
	/* A HugeTLB folio at the start (or after one neighbour): its geometry. */
	for (pfn = start; pfn < start + n && pfn < start + 2; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (PageHead(page) && PageHuge(page)) {
			struct mmd_buf *buf = file->private_data;
			u64 *w = (u64 *)(buf->data + 16);

			w[W_INIT_START_PFN] = pfn;
			w[W_INIT_END_PFN] = pfn + (1UL << compound_order(page));
			w[W_VMEMMAP_SHIFT] = compound_order(page);
			break;
		}
	}
	return 0;
}

static ssize_t mmd_dump_read(struct file *file, char __user *ubuf, size_t len,
			     loff_t *ppos)
{
	struct mmd_buf *buf = file->private_data;

	return simple_read_from_buffer(ubuf, len, ppos, buf->data, buf->size);
}

static int mmd_dump_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

#if MMD_ZONE_DEVICE
static const struct file_operations mmd_dump_fops = {
	.owner = THIS_MODULE,
	.open = mmd_dump_open,
	.read = mmd_dump_read,
	.release = mmd_dump_release,
	.llseek = default_llseek,
};
#endif

static const struct file_operations mmd_range_fops = {
	.owner = THIS_MODULE,
	.open = mmd_range_open,
	.read = mmd_dump_read,
	.release = mmd_dump_release,
	.llseek = default_llseek,
};

/*
 * huge_heads: one line per HugeTLB folio ("head_pfn order dump_start dump_end":
 * the folio plus the neighbours that exist), found by
 * walking the PFNs of every online node. Only heads are listed: a page the
 * code under test turned into a tail of the wrong folio shows up in the
 * neighbours the host asks dump_range for, not here.
 */
static int mmd_huge_heads_open(struct inode *inode, struct file *file)
{
	struct mmd_buf *buf;
	const size_t cap = PAGE_SIZE * 4;
	size_t pos = 0;
	int nid;

	buf = kvzalloc(sizeof(*buf) + cap, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for_each_online_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);
		unsigned long pfn, end = pgdat_end_pfn(pgdat);

		for (pfn = pgdat->node_start_pfn; pfn < end; pfn++) {
			struct page *page;

			if (!pfn_valid(pfn))
				continue;
			page = pfn_to_page(pfn);
			if (PageHead(page) && PageHuge(page)) {
				unsigned int order = compound_order(page);

				unsigned long n = 1UL << order;

				/* head, order, and the dump range with its valid neighbours */
				pos += scnprintf(buf->data + pos, cap - pos, "%#lx %u %#lx %#lx\n", pfn,
						 order, pfn_valid(pfn - 1) ? pfn - 1 : pfn,
						 pfn_valid(pfn + n) ? pfn + n + 1 : pfn + n);
				pfn += (1UL << order) - 1;
			}
			if (!(pfn & 0xffff))
				cond_resched();
		}
	}
	buf->size = pos;
	file->private_data = buf;
	return 0;
}

static const struct file_operations mmd_huge_heads_fops = {
	.owner = THIS_MODULE,
	.open = mmd_huge_heads_open,
	.read = mmd_dump_read,
	.release = mmd_dump_release,
	.llseek = default_llseek,
};

#ifdef CONFIG_DEVICE_PRIVATE
/* MEMORY_DEVICE_PRIVATE, the way lib/test_hmm.c creates it. */
static DEFINE_MUTEX(mmd_private_lock);
static struct resource *mmd_private_res;
static struct dev_pagemap *mmd_private_pgmap;
static u64 mmd_private_ns;
static unsigned long mmd_private_shift, mmd_private_pages;
static int mmd_private_owner;	/* its address is the pgmap owner */

static void mmd_private_page_free(struct page *page)
{
	/* Never called: no page of the range is ever handed out. */
}

static vm_fault_t mmd_private_migrate_to_ram(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct dev_pagemap_ops mmd_private_ops = {
	.page_free = mmd_private_page_free,
	.migrate_to_ram = mmd_private_migrate_to_ram,
};

static void mmd_private_destroy(void)
{
	if (mmd_private_pgmap) {
		memunmap_pages(mmd_private_pgmap);
		kfree(mmd_private_pgmap);
		mmd_private_pgmap = NULL;
	}
}

static int mmd_private_create(unsigned long shift, unsigned long nr_pages)
{
	const unsigned long size = nr_pages << PAGE_SHIFT;
	struct dev_pagemap *pgmap;
	void *addr;
	u64 t0;

	if (!nr_pages || shift > 18 || nr_pages & ((1UL << shift) - 1))
		return -EINVAL;
	mmd_private_destroy();
	if (mmd_private_res && resource_size(mmd_private_res) != size) {
		release_mem_region(mmd_private_res->start, resource_size(mmd_private_res));
		mmd_private_res = NULL;
	}
	if (!mmd_private_res) {
		struct resource *res = request_free_mem_region(&iomem_resource, size,
							       "kseries-memmap-dump");

		if (IS_ERR(res))
			return PTR_ERR(res);
		mmd_private_res = res;
	}
	pgmap = kzalloc(sizeof(*pgmap), GFP_KERNEL);
	if (!pgmap)
		return -ENOMEM;
	pgmap->type = MEMORY_DEVICE_PRIVATE;
	pgmap->range.start = mmd_private_res->start;
	pgmap->range.end = mmd_private_res->end;
	pgmap->nr_range = 1;
	pgmap->ops = &mmd_private_ops;
	pgmap->owner = &mmd_private_owner;
	pgmap->vmemmap_shift = shift;
	t0 = ktime_get_ns();
	addr = memremap_pages(pgmap, numa_node_id());
	mmd_private_ns = ktime_get_ns() - t0;
	if (IS_ERR(addr)) {
		kfree(pgmap);
		return PTR_ERR(addr);
	}
	mmd_private_pgmap = pgmap;
	mmd_private_shift = shift;
	mmd_private_pages = nr_pages;
	return 0;
}

static ssize_t mmd_private_write(struct file *file, const char __user *ubuf, size_t len,
				 loff_t *ppos)
{
	char text[64];
	unsigned long shift, nr_pages;
	int ret;

	if (len >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, len))
		return -EFAULT;
	text[len] = 0;
	mutex_lock(&mmd_private_lock);
	if (sysfs_streq(text, "destroy")) {
		mmd_private_destroy();
		ret = 0;
	} else if (sscanf(text, "%lu %lu", &shift, &nr_pages) == 2) {
		ret = mmd_private_create(shift, nr_pages);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&mmd_private_lock);
	return ret ? ret : len;
}

static ssize_t mmd_private_read(struct file *file, char __user *ubuf, size_t len,
				loff_t *ppos)
{
	char text[192];
	int n;

	mutex_lock(&mmd_private_lock);
	n = scnprintf(text, sizeof(text),
		      "mapped=%d start_pfn=%#llx nr_pages=%lu vmemmap_shift=%lu memremap_ns=%llu\n",
		      mmd_private_pgmap != NULL,
		      mmd_private_res ? (unsigned long long)PHYS_PFN(mmd_private_res->start) : 0ULL,
		      mmd_private_pages, mmd_private_shift, mmd_private_ns);
	mutex_unlock(&mmd_private_lock);
	return simple_read_from_buffer(ubuf, len, ppos, text, n);
}

static const struct file_operations mmd_private_fops = {
	.owner = THIS_MODULE,
	.read = mmd_private_read,
	.write = mmd_private_write,
	.llseek = default_llseek,
};
#endif /* CONFIG_DEVICE_PRIVATE */

#if MMD_ZONE_DEVICE
static ssize_t mmd_last_read(struct file *file, char __user *ubuf, size_t len,
			     loff_t *ppos)
{
	char text[512];
	struct mmd_call c;
	int n;

	mutex_lock(&mmd_lock);
	c = last;
	mutex_unlock(&mmd_lock);
	n = scnprintf(text, sizeof(text),
		      "calls=%lu start_pfn=%#lx nr_pages=%lu init_start_pfn=%#lx init_end_pfn=%#lx "
		      "range=%#lx-%#lx pgmap_type=%lu vmemmap_shift=%lu altmap=%d poisoned=%d "
		      "tracepoint_on=%d unwritten_pfn=%#lx\n",
		      calls, c.start_pfn, c.nr_pages, c.init_start_pfn, c.init_end_pfn,
		      c.range_start_pfn, c.range_end_pfn, c.pgmap_type, c.vmemmap_shift,
		      c.altmap_valid, c.poisoned, c.tracepoint_on, c.unwritten_pfn);
	return simple_read_from_buffer(ubuf, len, ppos, text, n);
}

static const struct file_operations mmd_last_fops = {
	.owner = THIS_MODULE,
	.read = mmd_last_read,
	.llseek = default_llseek,
};
#endif

#if MMD_ZONE_DEVICE
/*
 * "state": what a bind leaves beyond the struct pages (issue 46), as text
 * the host compares with the base kernel's: every zone of the last init's
 * node (start pfn, spanned, present, zone->contiguous) and, while the last
 * init's device range is still mapped, the migratetype of each of its
 * pageblocks, run-length encoded ("mt FIRST_PFN COUNT TYPE"). The flags
 * live in the section's usemap, not in any struct page; read as
 * get_pfnblock_flags_mask() does (it is not exported).
 */
static unsigned long mmd_pageblock_mt(unsigned long pfn)
{
	struct mem_section *ms = __pfn_to_section(pfn);
	unsigned long *bitmap = section_to_usemap(ms);
	unsigned long bitidx = ((pfn & (PAGES_PER_SECTION - 1)) >> pageblock_order) *
			       NR_PAGEBLOCK_BITS;
	unsigned long word = READ_ONCE(bitmap[bitidx / BITS_PER_LONG]);

	return (word >> (bitidx & (BITS_PER_LONG - 1))) & MIGRATETYPE_MASK;
}

static int mmd_state_show(struct seq_file *m, void *v)
{
	struct mmd_call c;
	pg_data_t *pgdat;
	unsigned long pfn, run_start = 0, run_count = 0, run_mt = ~0UL, blocks = 0;
	int i;

	mutex_lock(&mmd_lock);
	c = last;
	mutex_unlock(&mmd_lock);
	pgdat = NODE_DATA(c.pgmap ? c.nid : first_online_node);
	seq_printf(m, "node %d pageblock_order %u\n", pgdat->node_id, (unsigned)pageblock_order);
	seq_printf(m, "struct_page %zu section_pages %lu\n", sizeof(struct page),
		   (unsigned long)PAGES_PER_SECTION);
	for (i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		seq_printf(m, "zone %s start_pfn %#lx spanned %lu present %lu contiguous %d\n",
			   zone->name, zone->zone_start_pfn, zone->spanned_pages,
			   zone->present_pages, zone->contiguous);
	}
	if (!c.pgmap) {
		return 0;
	}
	seq_printf(m, "range %#lx-%#lx init %#lx-%#lx\n", c.range_start_pfn, c.range_end_pfn,
		   c.init_start_pfn, c.init_end_pfn);
	/* Pages of the range in early sections (shared with boot RAM): their
	 * memmap is the boot's, not populated (nor counted) by the bind. */
	for (pfn = c.range_start_pfn; pfn < c.range_end_pfn;
	     pfn = ALIGN(pfn + 1, PAGES_PER_SECTION)) {
		unsigned long end = min(ALIGN(pfn + 1, PAGES_PER_SECTION), c.range_end_pfn);

		if (valid_section_nr(pfn_to_section_nr(pfn)) && early_section(__pfn_to_section(pfn)))
			blocks += end - pfn;
	}
	seq_printf(m, "device altmap %d vmemmap_shift %lu early_pages %lu\n", c.altmap_valid,
		   c.vmemmap_shift, blocks);
	blocks = 0;
	for (pfn = ALIGN_DOWN(c.range_start_pfn, pageblock_nr_pages); pfn < c.range_end_pfn;
	     pfn += pageblock_nr_pages) {
		unsigned long mt;

		if (!pfn_valid(pfn)) {
			continue;  /* unmapped (after unbind): nothing to read */
		}
		mt = mmd_pageblock_mt(pfn);
		blocks++;
		if (run_count && mt == run_mt && pfn == run_start + run_count * pageblock_nr_pages) {
			run_count++;
			continue;
		}
		if (run_count) {
			seq_printf(m, "mt %#lx %lu %lu\n", run_start, run_count, run_mt);
		}
		run_start = pfn;
		run_count = 1;
		run_mt = mt;
	}
	if (run_count) {
		seq_printf(m, "mt %#lx %lu %lu\n", run_start, run_count, run_mt);
	}
	seq_printf(m, "pageblocks %lu\n", blocks);
	return 0;
}

static int mmd_state_open(struct inode *inode, struct file *file)
{
	return single_open(file, mmd_state_show, NULL);
}

static const struct file_operations mmd_state_fops = {
	.owner = THIS_MODULE,
	.open = mmd_state_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
#endif

static int __init mmd_init(void)
{
#if MMD_ZONE_DEVICE
	int ret = register_kretprobe(&mmd_probe);

	if (ret) {
		pr_err("memmap_dump: kretprobe on memmap_init_zone_device: %d\n", ret);
		return ret;
	}
#endif
	mmd_dir = debugfs_create_dir("memmap_dump", NULL);
#if MMD_ZONE_DEVICE
	debugfs_create_file("dump", 0400, mmd_dir, NULL, &mmd_dump_fops);
	debugfs_create_file("last", 0444, mmd_dir, NULL, &mmd_last_fops);
	debugfs_create_file("state", 0444, mmd_dir, NULL, &mmd_state_fops);
#endif
	debugfs_create_file("dump_range", 0400, mmd_dir, NULL, &mmd_range_fops);
	debugfs_create_file("huge_heads", 0400, mmd_dir, NULL, &mmd_huge_heads_fops);
#ifdef CONFIG_DEVICE_PRIVATE
	debugfs_create_file("private", 0600, mmd_dir, NULL, &mmd_private_fops);
#endif
	return 0;
}

static void __exit mmd_exit(void)
{
	debugfs_remove_recursive(mmd_dir);
#ifdef CONFIG_DEVICE_PRIVATE
	mmd_private_destroy();
	if (mmd_private_res)
		release_mem_region(mmd_private_res->start, resource_size(mmd_private_res));
#endif
#if MMD_ZONE_DEVICE
	unregister_kretprobe(&mmd_probe);
#endif
}

module_init(mmd_init);
module_exit(mmd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kseries: dump struct pages (ZONE_DEVICE, device private, HugeTLB) for the memmap oracle");
