#pragma once
// Where a legacy pmem namespace lies, as a property of a setup (issue 46):
// the regressions that hit memmap_init_zone_device() upstream showed only
// where a namespace shares a 128 MiB memory section with boot RAM (the boot
// memmap of that section is fully populated, so code that assumes the
// deduplicated devdax vmemmap layout leaves tails as the boot left them). A
// setup names its layout after '@' (devdax-mem@share-first); without one it
// is the aligned region of today.
//
//  aligned       memmap=SIZE!OFFSET (2G at 4G): starts and ends on section
//                boundaries;
//  share-first   448M starting 64M into the section after the aligned
//                region's 1 GiB boundary: its first section also holds
//                System RAM (the 64M below it);
//  share-last    448M starting on the next 1 GiB boundary: its last section
//                also holds System RAM (the 64M above it).
// Each extra layout is one more memmap=SIZE!OFFSET (its own nd region); the
// guest finds its region by address (kseries.layouts=NAME:ADDRESS:SIZE,...)
// and checks in /proc/iomem and the memory blocks that the layout is what it
// claims before using it.

#include <cstdint>
#include <string>
#include <vector>

namespace kseries::qemu {

struct PmemRegion {
  std::string layout;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

// The layouts a setup may name.
const std::vector<std::string>& pmem_layout_names();

// "devdax-mem@share-first" -> "share-first"; "devdax-mem" -> "aligned".
std::string setup_layout(const std::string& setup);
// "devdax-mem@share-first" -> "devdax-mem".
std::string setup_without_layout(const std::string& setup);

// The regions of LAYOUTS (aligned first, always), around the aligned region
// of SIZE at OFFSET. Throws Error(k_usage) for an unknown layout.
std::vector<PmemRegion> pmem_regions(std::uint64_t offset, std::uint64_t size,
                                     const std::vector<std::string>& layouts);

// "kseries.layouts=aligned:0x100000000:2048M,share-first:..." for the guest.
std::string layouts_cmdline(const std::vector<PmemRegion>& regions);

}  // namespace kseries::qemu
