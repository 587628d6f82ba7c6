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
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/debugfs.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/vmalloc.h>
#include <linux/page_ref.h>
#include <linux/fs.h>
#include <linux/uaccess.h>

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
	W_TAIL_MAPPING,
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

static DEFINE_MUTEX(mmd_lock);		/* guards last/calls against readers */
static struct mmd_call last;
static unsigned long calls;
static struct dentry *mmd_dir;

static int mmd_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mmd_call *c = (struct mmd_call *)ri->data;
	struct zone *zone = (struct zone *)regs->di;
	struct dev_pagemap *pgmap = (struct dev_pagemap *)regs->cx;
	unsigned long end_pfn;

	memset(c, 0, sizeof(*c));
	c->start_pfn = regs->si;
	c->nr_pages = regs->dx;
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
	w[W_ZONE_DEVICE_IDX] = ZONE_DEVICE;
	w[W_PG_RESERVED] = PG_reserved;
	w[W_PG_HEAD] = PG_head;
	w[W_PGMAP_ADDR] = (u64)(unsigned long)c->pgmap;
	w[W_PGMAP_TYPE] = c->pgmap_type;
	w[W_PGMAP_FLAGS] = c->pgmap_flags;
	w[W_VMEMMAP_SHIFT] = c->vmemmap_shift;
	w[W_RANGE_START_PFN] = c->range_start_pfn;
	w[W_RANGE_END_PFN] = c->range_end_pfn;
	w[W_INIT_START_PFN] = c->init_start_pfn;
	w[W_INIT_END_PFN] = c->init_end_pfn;
	w[W_DUMP_START_PFN] = start;
	w[W_DUMP_END_PFN] = end;
	w[W_ALTMAP_VALID] = c->altmap_valid;
	if (c->altmap_valid) {
		w[W_ALTMAP_BASE_PFN] = c->altmap_base_pfn;
		w[W_ALTMAP_RESERVE] = c->altmap_reserve;
		w[W_ALTMAP_FREE] = c->altmap_free;
	}
	w[W_INIT_CALLS] = calls;
	w[W_POISONED] = c->poisoned;
	w[W_POISON_BYTE] = MMD_POISON_BYTE;
	w[W_UNWRITTEN_PFN] = c->unwritten_pfn;
	w[W_TRACEPOINT_ON_AT_INIT] = c->tracepoint_on;
	w[W_NID] = c->nid;
	w[W_TAIL_MAPPING] = (u64)(unsigned long)TAIL_MAPPING;
}

struct mmd_buf {
	size_t size;
	char data[];
};

/*
 * Records: u64 pfn, u64 count, then sizeof(struct page) raw bytes shared by
 * the count pages from pfn on; a record with count 0 ends the dump.
 * Returns the encoded size; writes only when out != NULL.
 */
static size_t mmd_encode(char *out, unsigned long start, unsigned long end)
{
	const size_t psz = sizeof(struct page);
	size_t pos = 0;
	unsigned long pfn = start;

	while (pfn < end) {
		const struct page *p = pfn_to_page(pfn);
		u64 count = 1;

		while (pfn + count < end && !memcmp(pfn_to_page(pfn + count), p, psz))
			count++;
		if (out) {
			u64 rec[2] = { pfn, count };

			memcpy(out + pos, rec, sizeof(rec));
			memcpy(out + pos + sizeof(rec), p, psz);
		}
		pos += 2 * sizeof(u64) + psz;
		pfn += count;
		cond_resched();
	}
	if (out) {
		u64 rec[2] = { end, 0 };

		memcpy(out + pos, rec, sizeof(rec));
	}
	return pos + 2 * sizeof(u64);
}

static int mmd_dump_open(struct inode *inode, struct file *file)
{
	struct mmd_call c;
	struct dev_pagemap *live;
	struct mmd_buf *buf;
	unsigned long start, end, pfn;
	size_t head_size = 16 + W_COUNT * sizeof(u64), body;
	u32 hw[2] = { MMD_VERSION, W_COUNT };
	int ret = 0;

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
	if (live != c.pgmap) {
		ret = -ESTALE;	/* rebound since the last init call we saw */
		goto out_put;
	}
	for (pfn = start; pfn < end; pfn++) {
		if (!pfn_valid(pfn)) {
			ret = -ERANGE;
			goto out_put;
		}
	}
	body = mmd_encode(NULL, start, end);
	buf = kvmalloc(sizeof(*buf) + head_size + body, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out_put;
	}
	buf->size = head_size + body;
	memcpy(buf->data, MMD_MAGIC, 8);
	memcpy(buf->data + 8, hw, sizeof(hw));
	mmd_header((u64 *)(buf->data + 16), &c, start, end);
	if (mmd_encode(buf->data + head_size, start, end) != body) {
		kvfree(buf);
		ret = -EAGAIN;	/* the memmap changed under us */
		goto out_put;
	}
	file->private_data = buf;
out_put:
	put_dev_pagemap(live);
	return ret;
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

static const struct file_operations mmd_dump_fops = {
	.owner = THIS_MODULE,
	.open = mmd_dump_open,
	.read = mmd_dump_read,
	.release = mmd_dump_release,
	.llseek = default_llseek,
};

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

static int __init mmd_init(void)
{
	int ret = register_kretprobe(&mmd_probe);

	if (ret) {
		pr_err("memmap_dump: kretprobe on memmap_init_zone_device: %d\n", ret);
		return ret;
	}
	mmd_dir = debugfs_create_dir("memmap_dump", NULL);
	debugfs_create_file("dump", 0400, mmd_dir, NULL, &mmd_dump_fops);
	debugfs_create_file("last", 0444, mmd_dir, NULL, &mmd_last_fops);
	return 0;
}

static void __exit mmd_exit(void)
{
	debugfs_remove_recursive(mmd_dir);
	unregister_kretprobe(&mmd_probe);
}

module_init(mmd_init);
module_exit(mmd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kseries: dump ZONE_DEVICE struct pages for the memmap oracle");
