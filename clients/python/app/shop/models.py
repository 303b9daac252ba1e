"""README's model Order, and a line of an order with a key of another
table, a nullable id and an array of ids."""

from django.contrib.postgres.fields import ArrayField
from django.db import models

from pgxid.django import XidField, XidNew


class Order(models.Model):
    id = XidField(primary_key=True, db_default=XidNew())
    item = models.TextField()

    class Meta:
        app_label = "shop"
        db_table = "orders"


class Line(models.Model):
    id = XidField(primary_key=True, db_default=XidNew())
    order = models.ForeignKey(Order, on_delete=models.CASCADE)
    replaces = XidField(null=True)
    related = ArrayField(XidField(), default=list)

    class Meta:
        app_label = "shop"
        db_table = "lines"
