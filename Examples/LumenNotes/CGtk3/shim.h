// GTK 3, for the example's own window and buttons (the runtime's C shims are its own).
#include <gtk/gtk.h>
