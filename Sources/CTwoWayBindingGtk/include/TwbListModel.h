#pragma once
// A GListModel whose items are made on demand: the model holds only its
// length, and an item is made when GTK asks for a position (for the rows in
// view), carrying whatever the Swift side gives it for that position. A list
// of 100,000 elements thus costs GTK as much as the rows it shows. An item
// GTK still holds is given again for its position, and moves with its
// element, so that a change binds only the rows it changes.
#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _TwbListModel TwbListModel;
typedef struct _TwbListItem TwbListItem;

GType twb_list_model_get_type(void);
GType twb_list_item_get_type(void);

// Gives the data an item at `position` carries; the item owns it and frees it
// with the model's `free_item_data`.
typedef gpointer (*TwbListItemDataFunc)(guint position, gpointer user_data);

// A model of no items. `user_data` is freed with `destroy` when the model is.
TwbListModel *twb_list_model_new(TwbListItemDataFunc item_data, GDestroyNotify free_item_data,
                                 gpointer user_data, GDestroyNotify destroy);

// Tells GTK that at `position`, `removed` items went and `added` came: one
// items-changed emission. Does nothing for an empty change.
void twb_list_model_splice(TwbListModel *self, guint position, guint removed, guint added);

// Gives the items GTK holds for the `count` positions from `position` the
// data their elements now give: the elements there were rewritten in place.
// GTK is told nothing (its items and rows stay); the caller shows the new
// data in the rows bound to those items.
void twb_list_model_refresh(TwbListModel *self, guint position, guint count);

// Items made since the model was, for tests of laziness and reuse.
guint twb_list_model_get_items_made(TwbListModel *self);

// The data the item carries.
gpointer twb_list_item_get_data(TwbListItem *self);

// Whether the item still stands for an element of its model: false once its
// element was removed or rewritten, or its model is gone, so that GTK will
// not be given it again.
gboolean twb_list_item_is_live(TwbListItem *self);

G_END_DECLS
