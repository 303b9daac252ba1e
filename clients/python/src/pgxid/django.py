"""Django: a model field ``XidField`` with index-friendly lookups.

    from django.db import models
    from pgxid.django import XidField, XidNew

    class Order(models.Model):
        id = XidField(primary_key=True, db_default=XidNew())
        item = models.TextField()

    Order.objects.filter(id__startswith="5cnrQT")           # id ^@ '5cnrQT'
    Order.objects.filter(id__gte=datetime(2026, 1, 1, tzinfo=timezone.utc))
                                                  # id >= '...'::timestamptz

- The column is ``public.xid`` (``XidField(schema="ids")`` for another
  schema); values are ``pgxid.Xid``; bad text is a ValidationError in
  forms and a ValueError with the server's message in queries.
- ``startswith`` is the server's ``^@``, a range scan of the index (Django's
  own would be ``id::text LIKE '5cn%'``, which reads every row).
- ``gt``/``gte``/``lt``/``lte`` with a ``datetime`` are the server's
  ``xid OP timestamptz``, exactly ``xid_time(id) OP t``, on the index; a
  naive datetime is refused (it has no instant).  With an ``Xid`` or text
  they compare ids.
- ``XidConverter`` is a URL path converter:
  ``register_converter(XidConverter, "xid")``, then
  ``path("orders/<xid:pk>/", view)``: a path with anything but an id's
  text does not match (404, not a 500 from a query), and the view gets an
  ``Xid``.
- A key the server makes (``db_default=XidNew()``): its form field (the
  admin's too) is not required; left empty, the row gets the server's
  ``xid_new()``; given, that id is stored.  ``editable=False`` leaves the
  id out of forms altogether.
- Admin search by the first characters of an id:
  ``search_fields = ["id__startswith"]`` is ``id ^@ term``, an index range
  (case-sensitive, as Base58 is); or ``XidSearchMixin`` before
  ``admin.ModelAdmin`` turns ``"id"``, ``"^id"`` and ``"=id"`` (and
  ``"order__id"``) into that.  Django's own ``"id"`` would be
  ``UPPER(id::text) LIKE``, which reads every row.
- ``CreateXidExtension()`` is a migration operation that creates the
  extension (``CREATE EXTENSION IF NOT EXISTS xid SCHEMA public``): put
  it first in the first migration, before any model with an ``XidField``.
- Importing this module connects to ``connection_created``: every new
  PostgreSQL connection gets ``pgxid.psycopg`` (or ``pgxid.psycopg2``)
  registered for ``settings.PGXID_SCHEMA`` (default ``public``), which
  ``ArrayField(XidField())`` needs.
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any, Generic, Optional, TypeVar, Union

from django import forms
from django.core import exceptions
from django.db.backends.signals import connection_created
from django.db.migrations.operations import RunSQL
from django.db.models import Field, Func, Lookup
from django.db.models.lookups import (
    GreaterThan,
    GreaterThanOrEqual,
    LessThan,
    LessThanOrEqual,
)

from ._codec import Xid, XidError

__all__ = ["XidField", "XidFormField", "XidNew", "XidConverter", "XidSearchMixin", "CreateXidExtension"]


def _quote(schema: str) -> str:
    if schema.isidentifier() and schema == schema.lower():
        return schema
    return '"' + schema.replace('"', '""') + '"'


class XidNew(Func):
    """``xid_new()``, for ``db_default``."""

    function = "xid_new"
    arity = 0

    def __init__(self, **extra: Any) -> None:
        super().__init__(output_field=XidField(), **extra)


class XidFormField(forms.CharField):
    """A form field for an xid: its text, cleaned to an ``Xid`` (or None
    when empty and not required)."""

    default_error_messages = {"invalid": "“%(value)s” is not a valid xid."}

    def to_python(self, value: Any) -> Optional[Xid]:
        if isinstance(value, Xid):
            return value
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            return Xid(value)
        except (XidError, TypeError):
            raise exceptions.ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": value}
            )

    def widget_attrs(self, widget: Any) -> Any:
        attrs = super().widget_attrs(widget)
        if not widget.is_hidden:
            attrs.setdefault("maxlength", "11")
        return attrs


# XidField's set and get types for django-stubs (its Field[_ST, _GT]): what
# its mypy plugin puts in, from _pyi_private_set_type and
# _pyi_private_get_type below (Optional with null=True), as for its own
# UUIDField; at run time Field is no generic class, so Generic makes the
# parameters
_ST = TypeVar("_ST", contravariant=True)
_GT = TypeVar("_GT", covariant=True)

if TYPE_CHECKING:
    _XidFieldBase = Field
else:

    class _XidFieldBase(Field, Generic[_ST, _GT]):
        pass


class XidField(_XidFieldBase[_ST, _GT]):
    """A ``public.xid`` column; with django-stubs' mypy plugin a
    ``Field[Xid | str, Xid]`` (``Xid | None`` with ``null=True``), so
    ``order.id`` is an ``Xid``."""

    _pyi_private_set_type: Union[Xid, str]
    _pyi_private_get_type: Xid
    _pyi_lookup_exact_type: Union[Xid, str]

    description = "An xid of the PostgreSQL extension xid (11 Base58 symbols)"
    empty_strings_allowed = False
    default_error_messages = {"invalid": "“%(value)s” is not a valid xid."}

    def __init__(self, *args: Any, schema: str = "public", **kwargs: Any) -> None:
        self.schema = schema
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        if self.schema != "public":
            kwargs["schema"] = self.schema
        return name, path, args, kwargs

    def db_type(self, connection: Any) -> str:
        return f"{_quote(self.schema)}.xid"

    def rel_db_type(self, connection: Any) -> str:
        return self.db_type(connection)

    def get_internal_type(self) -> str:
        return "XidField"

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Optional[Xid]:
        return None if value is None else Xid(value)

    def to_python(self, value: Any) -> Optional[Xid]:
        if value is None or isinstance(value, Xid):
            return value
        try:
            return Xid(value)
        except (XidError, TypeError):
            raise exceptions.ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": value}
            )

    def formfield(self, **kwargs: Any) -> Any:
        """An ``XidFormField``; not required when the server makes the id
        (``db_default``), with a help text saying so."""
        defaults: dict[str, Any] = {"form_class": XidFormField}
        if self.has_db_default():
            defaults["required"] = False
            if not self.help_text:
                defaults["help_text"] = "Leave empty: the database makes a new id."
        defaults.update(kwargs)
        return super().formfield(**defaults)

    def save_form_data(self, instance: Any, data: Any) -> None:
        """An empty form value leaves the id to the server: a new row keeps
        its ``db_default`` (``DEFAULT`` in the INSERT); a saved row keeps
        its id."""
        if data in (None, "") and self.has_db_default():
            if instance._state.adding:
                setattr(instance, self.attname, self.get_default())  # DatabaseDefault(XidNew())
            return
        super().save_form_data(instance, data)

    def get_prep_value(self, value: Any) -> Optional[Xid]:
        value = super().get_prep_value(value)
        if value is None:
            return None
        if isinstance(value, (_dt.date, _dt.datetime)):
            raise TypeError(
                "a datetime given as an xid: use the lookups gt, gte, lt or lte "
                "(id__gte=t means xid_time(id) >= t)"
            )
        return Xid(value)


def _aware(value: _dt.datetime) -> _dt.datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            "an xid compared with a naive datetime: give the datetime a tzinfo "
            "(a naive one would be read in the connection's time zone)"
        )
    return value


class _TimeOrIdMixin:
    """With a datetime: ``id OP %s::timestamptz``; otherwise as for ids."""

    def get_prep_lookup(self) -> Any:
        rhs = self.rhs  # type: ignore[attr-defined]
        if isinstance(rhs, _dt.datetime):
            return _aware(rhs)
        if isinstance(rhs, _dt.date):
            raise TypeError("an xid compared with a date: compare with an aware datetime")
        return super().get_prep_lookup()  # type: ignore[misc]

    def get_db_prep_lookup(self, value: Any, connection: Any) -> Any:
        if isinstance(value, _dt.datetime):
            return "%s::timestamptz", [value]
        return super().get_db_prep_lookup(value, connection)  # type: ignore[misc]


@XidField.register_lookup
class XidGreaterThan(_TimeOrIdMixin, GreaterThan):
    pass


@XidField.register_lookup
class XidGreaterThanOrEqual(_TimeOrIdMixin, GreaterThanOrEqual):
    pass


@XidField.register_lookup
class XidLessThan(_TimeOrIdMixin, LessThan):
    pass


@XidField.register_lookup
class XidLessThanOrEqual(_TimeOrIdMixin, LessThanOrEqual):
    pass


@XidField.register_lookup
class XidStartsWith(Lookup):
    """``id ^@ prefix``: the ids whose text starts with the prefix, a range
    scan of the index (the server's planner support)."""

    lookup_name = "startswith"
    prepare_rhs = False

    def as_sql(self, compiler: Any, connection: Any) -> Any:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} ^@ ({rhs})::text", [*lhs_params, *rhs_params]

    def get_prep_lookup(self) -> Any:
        if not hasattr(self.rhs, "resolve_expression") and not isinstance(self.rhs, str):
            raise TypeError("startswith takes the text of a prefix")
        return self.rhs


class XidSearchMixin:
    """Before ``admin.ModelAdmin``: each of ``search_fields`` that names an
    ``XidField`` (``"id"``, ``"^id"``, ``"=id"``, ``"order__id"``) is
    searched by prefix, ``id ^@ term`` (``id__startswith``), an index range,
    case-sensitive as Base58 is; a whole id finds exactly that one."""

    def get_search_fields(self, request: Any) -> Any:
        fields = super().get_search_fields(request)  # type: ignore[misc]
        return [_prefix_search(self.model, f) for f in fields]  # type: ignore[attr-defined]


def _prefix_search(model: Any, name: str) -> str:
    path = name.lstrip("^=")
    if name.startswith("@") or not path:
        return name
    opts = model._meta
    field = None
    for part in path.split("__"):
        try:
            field = opts.pk if part == "pk" else opts.get_field(part)
        except exceptions.FieldDoesNotExist:
            return name  # a lookup, or not a field: as Django reads it
        if getattr(field, "path_infos", None):
            opts = field.path_infos[-1].to_opts
    if field is not None and field.is_relation:
        # a relation last ("order"): the key it points at ("order__id")
        target = getattr(field, "target_field", None)
        field = target if isinstance(target, XidField) and not field.many_to_many else opts.pk
        path = f"{path}__{field.name}"
    if isinstance(field, XidField):
        return path + "__startswith"
    return name


def _register(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Register the driver's xid codecs on a new connection, for the schema
    ``settings.PGXID_SCHEMA`` (default ``public``); nothing while the
    extension is not installed yet (before its migration)."""
    if connection.vendor != "postgresql":
        return
    from django.conf import settings

    schema = getattr(settings, "PGXID_SCHEMA", "public")
    raw = connection.connection
    module = type(raw).__module__
    try:
        if module.startswith("psycopg2"):
            from . import psycopg2 as xid_psycopg2

            xid_psycopg2.register(raw, schema)
        elif module.startswith("psycopg"):
            from . import psycopg as xid_psycopg

            xid_psycopg.register(raw, schema)
    except LookupError:
        pass


connection_created.connect(_register, dispatch_uid="pgxid.django")


class XidConverter:
    """A path converter: ``register_converter(XidConverter, "xid")``."""

    regex = "[1-9A-HJ-NP-Za-km-z]{11}"

    def to_python(self, value: str) -> Xid:
        # a ValueError (an id above the largest) is no match: a 404
        return Xid(value)

    def to_url(self, value: Any) -> str:
        return str(Xid(value))


class CreateXidExtension(RunSQL):
    """The migration operation that creates the extension in ``schema``."""

    def __init__(self, schema: str = "public") -> None:
        super().__init__(f"CREATE EXTENSION IF NOT EXISTS xid SCHEMA {_quote(schema)}",
                         reverse_sql=RunSQL.noop, elidable=False)
        self.schema = schema

    def deconstruct(self) -> Any:
        return (self.__class__.__qualname__, [], {} if self.schema == "public" else {"schema": self.schema})

    def describe(self) -> str:
        return f"Creates the extension xid in schema {self.schema}"
