/* A tiny multiboot guest for the memcost plugin's black-box test
 * (tests/memcost_plugin_qemu.sh): 32-bit protected mode, no kernel. It
 * calls `measured` three times, the window the plugin costs:
 *   mode 0: 64 KiB of ordinary 4-byte stores to fresh lines
 *   mode 1: 64 KiB of movnti, then sfence
 *   mode 2: movnti to one line, an ordinary store to the same line (a
 *           hazard), movnti to another line, return without a fence (a
 *           second hazard)
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

	.bss
	.align 16
	.space 4096
stack_top:
