/* A tiny multiboot guest for the memcost plugin's black-box test
 * (tests/memcost_plugin_qemu.sh): 32-bit protected mode, no kernel. It
 * calls `measured` four times, the window the plugin costs:
 *   mode 0: 64 KiB of ordinary 4-byte stores to fresh lines
 *   mode 1: 64 KiB of movnti, then sfence
 *   mode 2: movnti to one line, an ordinary store to the same line (a
 *           hazard), movnti to another line, return without a fence (a
 *           second hazard)
 *   mode 3: (paging on, 4 MiB pages, virtual 8 MiB at physical 8 MiB)
 *           4 KiB of stores at virtual 8 MiB; the page remapped to physical
 *           12 MiB and invlpg; the same 4 KiB of stores again: fresh lines
 *           (a plugin that kept the old translation would see L1 hits)
 *   mode 4: movnti to one line, a locked instruction, an ordinary store to
 *           that line (ordered only by the lock), movnti to another line,
 *           a second locked instruction in a callee's callee (called from
 *           lock_site, through lock_caller), return without a fence (both
 *           lines reach the return ordered only by a lock)
 * then leaves QEMU through isa-debug-exit (exit code 0x21: (0x10 << 1) | 1). */
	.section .multiboot, "a"
	.align 4
	.long 0x1BADB002, 0x0, -0x1BADB002

	.text
	.globl _start
_start:
	mov $stack_top, %esp
	mov $0, %eax
	call measured
	mov $1, %eax
	call measured
	mov $2, %eax
	call measured
	/* Paging: identity 0-8 MiB, virtual 8 MiB -> physical 8 MiB (PSE). */
	movl $0x00000083, page_dir
	movl $0x00400083, page_dir + 4
	movl $0x00800083, page_dir + 8
	mov %cr4, %eax
	or $0x10, %eax
	mov %eax, %cr4
	mov $page_dir, %eax
	mov %eax, %cr3
	mov %cr0, %eax
	or $0x80000000, %eax
	mov %eax, %cr0
	mov $3, %eax
	call measured
	mov $4, %eax
	call measured
	mov $0x10, %al
	outb %al, $0xf4
1:	hlt
	jmp 1b

	.globl measured
measured:
	mov $0x400000, %edi          /* 4 MiB: fresh memory */
	cmp $1, %eax
	je nt
	cmp $2, %eax
	je hazard
	cmp $3, %eax
	je remap
	cmp $4, %eax
	je locked
	mov $0x400000, %edi
	mov $16384, %ecx
2:	movl $1, (%edi)
	add $4, %edi
	dec %ecx
	jnz 2b
	ret
nt:
	mov $0x500000, %edi
	mov $16384, %ecx
	mov $7, %edx
3:	movnti %edx, (%edi)
	add $4, %edi
	dec %ecx
	jnz 3b
	sfence
	ret
hazard:
	mov $0x600000, %edi
	mov $5, %edx
	.globl nt_store_one
nt_store_one:
	movnti %edx, (%edi)
	.globl plain_store
plain_store:
	movl $6, 8(%edi)
	.globl nt_store_two
nt_store_two:
	movnti %edx, 0x1000(%edi)
	ret
locked:
	mov $0x700000, %edi
	mov $9, %edx
	.globl nt_store_three
nt_store_three:
	movnti %edx, (%edi)
	.globl lock_one
lock_one:
	lock addl $0, (%esp)
	.globl plain_store_two
plain_store_two:
	movl $6, 8(%edi)
	.globl nt_store_four
nt_store_four:
	movnti %edx, 0x1000(%edi)
	.globl lock_site
lock_site:
	call lock_outer
	ret
lock_outer:
	push %ebx
	.globl lock_caller
lock_caller:
	call lock_inner
	pop %ebx
	ret
lock_inner:
	.globl lock_two
lock_two:
	xchg %edx, 0x2000(%edi)
	ret
remap:
	mov $0x800000, %edi
	mov $64, %ecx
4:	movl $1, (%edi)
	add $64, %edi
	dec %ecx
	jnz 4b
	movl $0x00c00083, page_dir + 8   /* virtual 8 MiB -> physical 12 MiB */
	invlpg 0x800000
	mov $0x800000, %edi
	mov $64, %ecx
5:	movl $2, (%edi)
	add $64, %edi
	dec %ecx
	jnz 5b
	ret

	.bss
	.align 4096
page_dir:
	.space 4096
	.align 16
	.space 4096
stack_top:
