// GTK 3 plus the pieces of GLib and libdispatch that the host's main-loop glue needs.
#include <gtk/gtk.h>
#include <glib-unix.h>

// libdispatch's hooks for foreign run loops (exported, not in a public header). GTK's loop
// watches the eventfd and drains the main queue, so @MainActor work runs inside gtk_main().
int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *msg);

// glibc's heap figures (mallinfo2): what the host's tests count live allocations with.
#include <malloc.h>
