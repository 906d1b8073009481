#include "TwbListModel.h"

struct _TwbListItem {
    GObject parent_instance;
    gpointer data;
    GDestroyNotify free_data;
    // The model that lists the item as live, not referenced: the item tells
    // it when it goes, and the model clears this when it goes first or when
    // the item's element is removed.
    TwbListModel *model;
    guint position;
};

static void twb_list_model_forget(TwbListModel *self, TwbListItem *item);

typedef struct { GObjectClass parent_class; } TwbListItemClass;

G_DEFINE_FINAL_TYPE(TwbListItem, twb_list_item, G_TYPE_OBJECT)

static void twb_list_item_finalize(GObject *object) {
    TwbListItem *self = (TwbListItem *)object;
    if (self->model) twb_list_model_forget(self->model, self);
    if (self->free_data && self->data) self->free_data(self->data);
    G_OBJECT_CLASS(twb_list_item_parent_class)->finalize(object);
}

static void twb_list_item_class_init(TwbListItemClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = twb_list_item_finalize;
}

static void twb_list_item_init(TwbListItem *self) { (void)self; }

gpointer twb_list_item_get_data(TwbListItem *self) {
    g_return_val_if_fail(G_TYPE_CHECK_INSTANCE_TYPE(self, twb_list_item_get_type()), NULL);
    return self->data;
}

gboolean twb_list_item_is_live(TwbListItem *self) {
    g_return_val_if_fail(G_TYPE_CHECK_INSTANCE_TYPE(self, twb_list_item_get_type()), FALSE);
    return self->model != NULL;
}

struct _TwbListModel {
    GObject parent_instance;
    guint n_items;
    guint items_made;
    TwbListItemDataFunc item_data;
    GDestroyNotify free_item_data;
    gpointer user_data;
    GDestroyNotify destroy;
    // The items made and still alive (GTK holds those of its bound rows),
    // by position, not referenced. Asked again for one of these positions,
    // the model gives the same item, so that GTK keeps its row bound when
    // only the position moved: a change at the top of the list then binds
    // one row, not every row GTK keeps.
    GPtrArray *live;
};

typedef struct { GObjectClass parent_class; } TwbListModelClass;

static void twb_list_model_list_model_init(GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(TwbListModel, twb_list_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, twb_list_model_list_model_init))

static GType twb_list_model_get_item_type(GListModel *list) {
    (void)list;
    return twb_list_item_get_type();
}

static guint twb_list_model_get_n_items(GListModel *list) {
    return ((TwbListModel *)list)->n_items;
}

/// The index in `live` of the first item at `position` or after it.
static guint twb_list_model_live_index(TwbListModel *self, guint position) {
    guint low = 0, high = self->live->len;
    while (low < high) {
        guint middle = low + (high - low) / 2;
        if (((TwbListItem *)g_ptr_array_index(self->live, middle))->position < position) low = middle + 1;
        else high = middle;
    }
    return low;
}

static void twb_list_model_forget(TwbListModel *self, TwbListItem *item) {
    guint index = twb_list_model_live_index(self, item->position);
    if (index < self->live->len && g_ptr_array_index(self->live, index) == item) {
        g_ptr_array_remove_index(self->live, index);
    }
    item->model = NULL;
}

static gpointer twb_list_model_get_item(GListModel *list, guint position) {
    TwbListModel *self = (TwbListModel *)list;
    if (position >= self->n_items) return NULL;
    guint index = twb_list_model_live_index(self, position);
    if (index < self->live->len) {
        TwbListItem *live = g_ptr_array_index(self->live, index);
        if (live->position == position) return g_object_ref(live);
    }
    TwbListItem *item = g_object_new(twb_list_item_get_type(), NULL);
    item->data = self->item_data(position, self->user_data);
    item->free_data = self->free_item_data;
    item->model = self;
    item->position = position;
    g_ptr_array_insert(self->live, (gint)index, item);
    self->items_made++;
    return item;
}

static void twb_list_model_list_model_init(GListModelInterface *iface) {
    iface->get_item_type = twb_list_model_get_item_type;
    iface->get_n_items = twb_list_model_get_n_items;
    iface->get_item = twb_list_model_get_item;
}

static void twb_list_model_finalize(GObject *object) {
    TwbListModel *self = (TwbListModel *)object;
    for (guint i = 0; i < self->live->len; i++) ((TwbListItem *)g_ptr_array_index(self->live, i))->model = NULL;
    g_ptr_array_free(self->live, TRUE);
    if (self->destroy) self->destroy(self->user_data);
    G_OBJECT_CLASS(twb_list_model_parent_class)->finalize(object);
}

static void twb_list_model_class_init(TwbListModelClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = twb_list_model_finalize;
}

static void twb_list_model_init(TwbListModel *self) { self->live = g_ptr_array_new(); }

TwbListModel *twb_list_model_new(TwbListItemDataFunc item_data, GDestroyNotify free_item_data,
                                 gpointer user_data, GDestroyNotify destroy) {
    TwbListModel *self = g_object_new(twb_list_model_get_type(), NULL);
    self->item_data = item_data;
    self->free_item_data = free_item_data;
    self->user_data = user_data;
    self->destroy = destroy;
    return self;
}

void twb_list_model_splice(TwbListModel *self, guint position, guint removed, guint added) {
    g_return_if_fail(G_TYPE_CHECK_INSTANCE_TYPE(self, twb_list_model_get_type()));
    g_return_if_fail(position <= self->n_items && removed <= self->n_items - position);
    if (removed == 0 && added == 0) return;
    self->n_items = self->n_items - removed + added;
    // Items of removed (or rewritten) elements are no longer the model's;
    // those after them move with their elements.
    guint first = twb_list_model_live_index(self, position);
    guint past = twb_list_model_live_index(self, position + removed);
    for (guint i = first; i < past; i++) ((TwbListItem *)g_ptr_array_index(self->live, i))->model = NULL;
    if (past > first) g_ptr_array_remove_range(self->live, first, past - first);
    for (guint i = first; i < self->live->len; i++) {
        TwbListItem *item = g_ptr_array_index(self->live, i);
        item->position = item->position - removed + added;
    }
    g_list_model_items_changed(G_LIST_MODEL(self), position, removed, added);
}

void twb_list_model_refresh(TwbListModel *self, guint position, guint count) {
    g_return_if_fail(G_TYPE_CHECK_INSTANCE_TYPE(self, twb_list_model_get_type()));
    g_return_if_fail(position <= self->n_items && count <= self->n_items - position);
    guint past = twb_list_model_live_index(self, position + count);
    for (guint i = twb_list_model_live_index(self, position); i < past; i++) {
        TwbListItem *item = g_ptr_array_index(self->live, i);
        gpointer data = self->item_data(item->position, self->user_data);
        if (item->free_data && item->data) item->free_data(item->data);
        item->data = data;
    }
}

guint twb_list_model_get_items_made(TwbListModel *self) {
    return self->items_made;
}
