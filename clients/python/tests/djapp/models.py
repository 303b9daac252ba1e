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
