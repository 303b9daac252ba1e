"""What mypy --strict says of XidField with django-stubs' plugin: each
assert_type fails the check (test.sh) when the type is not that one."""

from datetime import datetime
from typing import assert_type

from pgxid import Xid

from .models import Line, Order


def order_id(order: Order) -> Xid:
    assert_type(order.id, Xid)
    assert_type(order.pk, Xid)
    return order.id


def line_ids(line: Line) -> list[Xid]:
    assert_type(line.id, Xid)
    assert_type(line.order_id, Xid)
    assert_type(line.replaces, Xid | None)
    line.replaces = None
    line.replaces = "5cnEkaefSdu"  # the text of an id is accepted
    return [line.order.id, *line.related]


def since(t: datetime) -> list[Xid]:
    return [o.id for o in Order.objects.filter(id__gte=t)]


def by_prefix(prefix: str) -> Xid | None:
    o = Order.objects.filter(id__startswith=prefix).first()
    return None if o is None else o.id
