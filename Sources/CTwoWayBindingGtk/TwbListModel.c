#include "TwbListModel.h"

struct _TwbListItem {
    GObject parent_instance;
    gpointer data;
    GDestroyNotify free_data;
};

typedef struct { GObjectClass parent_class; } TwbListItemClass;

G_DEFINE_FINAL_TYPE(TwbListItem, twb_list_item, G_TYPE_OBJECT)

static void twb_list_item_finalize(GObject *object) {
    TwbListItem *self = (TwbListItem *)object;
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

struct _TwbListModel {
    GObject parent_instance;
    guint n_items;
    guint items_made;
    TwbListItemDataFunc item_data;
    GDestroyNotify free_item_data;
    gpointer user_data;
    GDestroyNotify destroy;
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

static gpointer twb_list_model_get_item(GListModel *list, guint position) {
    TwbListModel *self = (TwbListModel *)list;
    if (position >= self->n_items) return NULL;
    TwbListItem *item = g_object_new(twb_list_item_get_type(), NULL);
    item->data = self->item_data(position, self->user_data);
    item->free_data = self->free_item_data;
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
    if (self->destroy) self->destroy(self->user_data);
    G_OBJECT_CLASS(twb_list_model_parent_class)->finalize(object);
}

static void twb_list_model_class_init(TwbListModelClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = twb_list_model_finalize;
}

static void twb_list_model_init(TwbListModel *self) { (void)self; }

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
    g_list_model_items_changed(G_LIST_MODEL(self), position, removed, added);
}

guint twb_list_model_get_items_made(TwbListModel *self) {
    return self->items_made;
}
