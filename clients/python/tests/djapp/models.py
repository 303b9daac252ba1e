from django.contrib.postgres.fields import ArrayField
from django.db import models

from pgxid.django import XidField, XidNew


class Order(models.Model):
    id = XidField(primary_key=True, db_default=XidNew())
    item = models.TextField()
    tags = ArrayField(XidField(), null=True)

    class Meta:
        app_label = "djapp"
        db_table = "dj_orders"


class Line(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE)
    qty = models.IntegerField()

    class Meta:
        app_label = "djapp"
        db_table = "dj_lines"


class Note(models.Model):
    """A key the server makes: the admin adds one without an id."""

    id = XidField(primary_key=True, db_default=XidNew())
    title = models.CharField(max_length=100)

    class Meta:
        app_label = "djapp"
        db_table = "dj_notes"


class Memo(models.Model):
    """The same with blank=True (once a 500 in the admin)."""

    id = XidField(primary_key=True, db_default=XidNew(), blank=True)
    note = models.ForeignKey(Note, null=True, blank=True, on_delete=models.SET_NULL)
    body = models.CharField(max_length=100)

    class Meta:
        app_label = "djapp"
        db_table = "dj_memos"
