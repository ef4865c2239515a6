// GTK 3 plus the pieces of GLib and libdispatch that the host's main-loop glue needs.
#include <gtk/gtk.h>
#include <glib-unix.h>

// libdispatch's hooks for foreign run loops (exported, not in a public header). GTK's loop
// watches the eventfd and drains the main queue, so @MainActor work runs inside gtk_main().
int _dispatch_get_main_queue_handle_4CF(void);
void _dispatch_main_queue_callback_4CF(void *msg);

// Parenting a window on another process's window (`paywall serve`'s `parent`). Both live in
// libgdk-3 (Debian builds the X11 and Wayland backends); their headers (gdkx.h pulls Xlib in,
// gdkwayland.h) are not imported: these two prototypes are all that is used of them.
GdkWindow *gdk_x11_window_foreign_new_for_display(GdkDisplay *display, unsigned long window);
gboolean gdk_wayland_window_set_transient_for_exported(GdkWindow *window, char *parent_handle_str);
// A window's X11 id, for the OpenURI portal's parent_window ("x11:XID"), and the X11 backend's
// window type, to tell an X11 window from a Wayland one.
unsigned long gdk_x11_window_get_xid(GdkWindow *window);
GType gdk_x11_window_get_type(void);
// glibc's heap figures (mallinfo2): what the host's tests count live allocations with.
#include <malloc.h>
