#!/usr/bin/env python3
"""Writes a damaged copy of a plugin: one ELF failure mode per MODE.

usage: corrupt-plugin.py MODE INPUT OUTPUT

The input is a 64-bit little-endian ELF shared library built by the test
suite (test/Plugin/CMakeLists.txt). Each mode damages exactly one structure
that ld.so trusts, the way a fuzzer or a broken download would; the tests
check that tpx names the damage instead of crashing inside dlopen.
"""
import struct
import sys

PT_NULL, PT_LOAD, PT_DYNAMIC = 0, 1, 2
DT_NULL, DT_NEEDED, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_STRSZ = 0, 1, 5, 6, 7, 10
DT_DEBUG, DT_FLAGS_1, DT_GNU_HASH, DT_VERSYM = 21, 0x6FFFFFFB, 0x6FFFFEF5, 0x6FFFFFF0
DF_1_PIE = 0x08000000
EM_X86_64, EM_AARCH64 = 62, 183


class Elf:
    def __init__(self, data):
        self.data = bytearray(data)
        if self.data[:4] != b"\x7fELF" or self.data[4] != 2 or self.data[5] != 1:
            sys.exit("corrupt-plugin.py: needs a 64-bit little-endian ELF file")
        self.phoff = self.u64(32)
        self.phnum = self.u16(56)

    def u16(self, at):
        return struct.unpack_from("<H", self.data, at)[0]

    def u32(self, at):
        return struct.unpack_from("<I", self.data, at)[0]

    def u64(self, at):
        return struct.unpack_from("<Q", self.data, at)[0]

    def put(self, fmt, at, value):
        struct.pack_into(fmt, self.data, at, value)

    def phdr(self, index):
        """(offset of the header, type, file offset, address, file size)"""
        at = self.phoff + 56 * index
        return (at, self.u32(at), self.u64(at + 8), self.u64(at + 16),
                self.u64(at + 32))

    def segments(self, kind):
        return [self.phdr(i) for i in range(self.phnum)
                if self.phdr(i)[1] == kind]

    def file_offset(self, address):
        for _, _, offset, vaddr, size in self.segments(PT_LOAD):
            if vaddr <= address < vaddr + size:
                return offset + address - vaddr
        sys.exit("corrupt-plugin.py: address %#x is not in the file" % address)

    def dynamic(self):
        """[(offset of the entry, tag, value)] up to and including DT_NULL"""
        _, _, offset, _, size = self.segments(PT_DYNAMIC)[0]
        entries = []
        for at in range(offset, offset + size, 16):
            entries.append((at, self.u64(at), self.u64(at + 8)))
        return entries

    def tag(self, tag):
        for at, t, value in self.dynamic():
            if t == tag:
                return at, value
        sys.exit("corrupt-plugin.py: the input has no dynamic tag %#x" % tag)


def corrupt(mode, elf):
    if mode == "truncated":
        # What a download cut off after one page looks like.
        del elf.data[4096:]
    elif mode == "foreign-machine":
        machine = elf.u16(18)
        elf.put("<H", 18, EM_X86_64 if machine == EM_AARCH64 else EM_AARCH64)
    elif mode == "elf32":
        elf.data[4] = 1
    elif mode == "big-endian":
        elf.data[5] = 2
    elif mode == "freebsd":
        elf.data[7] = 9
    elif mode == "executable":
        elf.put("<H", 16, 2)
    elif mode == "relocatable":
        elf.put("<H", 16, 1)
    elif mode == "pie":
        entries = elf.dynamic()
        for i, (at, tag, value) in enumerate(entries):
            if tag == DT_FLAGS_1:
                elf.put("<Q", at + 8, value | DF_1_PIE)
                return
        # No DT_FLAGS_1: use the first of the spare DT_NULL entries.
        for i, (at, tag, value) in enumerate(entries[:-1]):
            if tag == DT_NULL and entries[i + 1][1] == DT_NULL:
                elf.put("<Q", at, DT_FLAGS_1)
                elf.put("<Q", at + 8, DF_1_PIE)
                return
        sys.exit("corrupt-plugin.py: no room for DT_FLAGS_1")
    elif mode == "phdrs-past-end":
        elf.put("<Q", 32, len(elf.data) - 56)
    elif mode == "load-misaligned":
        at, _, offset, _, _ = elf.segments(PT_LOAD)[1]
        elf.put("<Q", at + 8, offset + 8)
    elif mode == "no-dynamic":
        at = elf.segments(PT_DYNAMIC)[0][0]
        elf.put("<I", at, PT_NULL)
    elif mode == "dynamic-outside":
        at = elf.segments(PT_DYNAMIC)[0][0]
        elf.put("<Q", at + 16, 0x7FFF0000)
    elif mode == "dynamic-unterminated":
        for at, tag, _ in elf.dynamic():
            if tag == DT_NULL:
                elf.put("<Q", at, DT_DEBUG)
    elif mode == "strtab-outside":
        at, _ = elf.tag(DT_STRSZ)
        elf.put("<Q", at + 8, 0x100000)
    elif mode == "needed-offset":
        _, size = elf.tag(DT_STRSZ)
        at, _ = elf.tag(DT_NEEDED)
        elf.put("<Q", at + 8, size + 1000)
    elif mode == "reloc-target":
        _, address = elf.tag(DT_RELA)
        elf.put("<Q", elf.file_offset(address), 0x7FFF0000)
    elif mode == "symbol-name":
        _, size = elf.tag(DT_STRSZ)
        _, address = elf.tag(DT_SYMTAB)
        elf.put("<I", elf.file_offset(address) + 24, size + 5)
    elif mode == "gnu-hash-bloom":
        _, address = elf.tag(DT_GNU_HASH)
        elf.put("<I", elf.file_offset(address) + 8, 3)
    elif mode == "gnu-hash-no-buckets":
        _, address = elf.tag(DT_GNU_HASH)
        elf.put("<I", elf.file_offset(address), 0)
    elif mode == "versym-index":
        _, address = elf.tag(DT_VERSYM)
        elf.put("<H", elf.file_offset(address) + 2, 0x7FFE)
    else:
        sys.exit("corrupt-plugin.py: unknown mode " + mode)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    mode, source, target = sys.argv[1:]
    with open(source, "rb") as f:
        elf = Elf(f.read())
    corrupt(mode, elf)
    with open(target, "wb") as f:
        f.write(elf.data)


if __name__ == "__main__":
    main()
