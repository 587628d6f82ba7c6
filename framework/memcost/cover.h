/* The memcost plugin's cover= mode (cover.c): which kernel instructions a
 * guest run executed, for `kseries coverage`. */
#pragma once

#include <qemu-plugin.h>

/* The FILE of a cover=FILE argument, or NULL: the plugin runs in cover mode. */
const char* cover_requested(int argc, char** argv);

/* Registers the cover mode's callbacks; -1 (with a message on stderr) for a
 * bad argument or an unwritable FILE. */
int cover_install(qemu_plugin_id_t id, int argc, char** argv);
