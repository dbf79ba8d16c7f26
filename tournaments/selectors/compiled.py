"""The hottest queries, built through the ORM once per process and then run as SQL.

Building a query (filters, joins, ``select_related``, ordering) costs more Python than the
database takes to run it: about 0.4 ms a query here, against 0.1 ms. During a game every
player's poll and report runs the same few queries for another id, so each is compiled once,
for placeholder values, and run for the values asked (``Compiled``). The rows come back as
Django would return them: tuples for a ``values_list`` query, model instances (with their
``select_related`` objects and annotations) for a model query.

On PostgreSQL they run as prepared statements: planning these small queries costs more than
running them (0.2-0.5 ms against 0.03-0.07), and a prepared one is planned once per database
connection (they are kept open: ``CONN_MAX_AGE``). Django's own cursors bind parameters on
the client and never prepare; the settings let psycopg prepare what is asked here
(``DATABASE_PREPARED_STATEMENTS``). Errors are Django's (``OperationalError`` for a
deadlock...), and queries are logged as Django logs them, for tests and debugging.

Only fixed-shape queries belong here: each argument must reach the SQL as one parameter,
unchanged (ids, links), never inside a list whose length varies (``_plan`` checks it).
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model, QuerySet
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query import get_related_populators
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init


# What the queries are compiled for, in place of the values asked: twice, with two sets, so
# the parameters that change are the arguments' (a constant never does). Ints within every
# integer field's range (Django refuses a lookup beyond a field's range).
def _placeholders(kinds: tuple[type, ...], round_: int) -> tuple:
    values = []
    for position, kind in enumerate(kinds):
        if kind is int:
            values.append(30_001 + 2 * position + round_)
        elif kind is str:
            values.append(f"\x00compiled-{position}-{round_}\x00")
        else:
            raise TypeError(f"a compiled query takes ints and strings, not {kind.__name__}")
    return tuple(values)


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple
    slots: tuple[tuple[int, int], ...]  # (parameter index, argument index)
    model: type[Model] | None  # None: a values_list query, rows as tuples
    init: tuple = ()  # the model's columns: (start, end, attnames)
    populators: tuple = ()
    models: tuple = ()  # the model and every select_related model below it
    annotations: tuple = ()
    converters: tuple = ()  # (column index, converters, expression)


def _plan(build: Callable[..., QuerySet], kinds: tuple[type, ...]) -> _Plan:
    first, second = _placeholders(kinds, 0), _placeholders(kinds, 1)
    queryset = build(*first)
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    other_sql, other_params = build(*second).query.sql_with_params()
    if other_sql != sql or len(other_params) != len(params):
        raise ValueError("the query's shape depends on its arguments: it cannot be compiled once")
    slots = tuple(
        (index, first.index(value))
        for index, (value, other) in enumerate(zip(params, other_params, strict=True))
        if value != other and value in first and other == second[first.index(value)]
    )
    missing = set(range(len(kinds))) - {argument for _, argument in slots}
    if missing:
        raise ValueError(f"arguments {sorted(missing)} do not reach the SQL as parameters")
    select = compiler.select
    converters = tuple(
        (index, tuple(functions), expression)
        for index, (functions, expression) in compiler.get_converters(
            [column[0] for column in select]
        ).items()
    )
    common = {"sql": sql, "params": tuple(params), "slots": slots, "converters": converters}
    if compiler.klass_info is None or queryset._iterable_class.__name__ != "ModelIterable":
        return _Plan(**common, model=None)
    klass_info = compiler.klass_info
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    populators = tuple(get_related_populators(klass_info, select, queryset.db))
    return _Plan(
        **common,
        model=klass_info["model"],
        init=(start, end, [column[0].target.attname for column in select[start:end]]),
        populators=populators,
        models=(klass_info["model"], *_models_below(populators)),
        annotations=tuple(compiler.annotation_col_map.items()),
    )


def _models_below(populators) -> list:
    return [
        model
        for populator in populators
        for model in (populator.model_cls, *_models_below(populator.related_populators))
    ]


class Compiled:
    """``build(*values)``, a queryset, compiled once per process and database kind, and run
    for the ``values`` asked. ``kinds`` are the values' types (int or str)."""

    # Every compiled query made in this process: a new web worker compiles them before its
    # first request (``config.warm``).
    made: list[Compiled] = []

    def __init__(self, build: Callable[..., QuerySet], *kinds: type) -> None:
        self.build, self.kinds = build, kinds
        functools.update_wrapper(self, build)
        Compiled.made.append(self)

    def plan(self, vendor: str) -> _Plan:
        """The SQL for ``vendor``'s databases, built at its first use in the process."""
        return self._plan_for(vendor)

    @functools.cache  # noqa: B019  (one entry per query and database kind, for the process)
    def _plan_for(self, vendor: str) -> _Plan:
        return _plan(self.build, self.kinds)

    def rows(self, *values) -> list:
        """The rows: tuples for a ``values_list`` query, else model instances."""
        if len(values) != len(self.kinds) or any(v is None for v in values):
            # None would need another SQL (IS NULL): the caller decides what it means.
            raise TypeError(f"{self.build.__name__} takes {len(self.kinds)} values, not None")
        plan = self._plan_for(connection.vendor)
        params = list(plan.params)
        for index, argument in plan.slots:
            params[index] = values[argument]
        rows = prepared_rows(plan.sql, tuple(params))
        if plan.converters:
            rows = [_converted(row, plan.converters) for row in rows]
        return rows if plan.model is None else [_instance(plan, row) for row in rows]

    def first(self, *values):
        rows = self.rows(*values)
        return rows[0] if rows else None


def _converted(row: tuple, converters: tuple) -> tuple:
    row = list(row)
    for index, functions, expression in converters:
        value = row[index]
        for function in functions:
            value = function(value, expression, connection)
        row[index] = value
    return tuple(row)


def _instance(plan: _Plan, row: tuple) -> Model:
    start, end, attnames = plan.init
    db = connection.alias
    if not _made_as_django_makes(plan.models):
        instance = plan.model.from_db(db, attnames, row[start:end])
        for populator in plan.populators:
            populator.populate(row, instance)
    else:
        instance = _from_db(plan.model, db, attnames, row[start:end])
        for populator in plan.populators:
            _populate(populator, row, instance)
    for name, index in plan.annotations:
        setattr(instance, name, row[index])
    return instance


# A row made into its model's instance without ``Model.__init__``: a report's locked read makes
# five instances (the seat, its entry, game, event and table), and ``__init__`` (two signals
# sent, each field set through ``setattr``) was the largest share of the report's own Python.


def _made_as_django_makes(models: tuple) -> bool:
    """Whether ``_from_db`` makes what each model's ``from_db`` would: no receiver of
    ``pre_init`` or ``post_init`` (for any model: checked at each call, as one may be connected
    at any time), and every model of the row (``select_related`` ones too) makes its
    instances as Django's ``Model`` does (``_plain``)."""
    return not pre_init.receivers and not post_init.receivers and all(map(_plain, models))


# What a class of the model's own (or a mixin's) may not define for its rows to be made
# directly: each takes part in making an instance.
_MAKING = ("__new__", "__init__", "__setattr__", "from_db")


@functools.cache
def _plain(model: type[Model]) -> bool:
    """No class of ``model``'s own defines any of ``_MAKING``, and each column's attribute is
    one of Django's two plain descriptors (setting one on a new instance only stores it)."""
    djangos = set(Model.__mro__)
    plain = (DeferredAttribute, ForeignKeyDeferredAttribute)
    return not any(
        name in klass.__dict__
        for klass in model.__mro__
        if klass not in djangos
        for name in _MAKING
    ) and all(
        type(inspect.getattr_static(model, field.attname, None)) in plain
        for field in model._meta.concrete_fields
    )


def _from_db(model: type[Model], db: str, attnames: list[str], values) -> Model:
    """``model.from_db(db, attnames, values)``'s instance, made directly: its state (from the
    database ``db``, not being added) and each column's value under its field's name; a field
    not read stays deferred (absent from the instance's ``__dict__``), as Django leaves it."""
    instance = model.__new__(model)
    state = instance._state = ModelState()
    state.adding, state.db = False, db
    instance.__dict__.update(zip(attnames, values, strict=True))
    return instance


def _populate(populator, row: tuple, from_obj: Model) -> None:
    """Django's ``RelatedPopulator.populate`` (one ``select_related`` object and those below
    it), its instances made by ``_from_db``."""
    if populator.reorder_for_init:
        values = populator.reorder_for_init(row)
    else:
        values = row[populator.cols_start : populator.cols_end]
    if values[populator.pk_idx] is None:
        made = None
    else:
        made = _from_db(populator.model_cls, populator.db, populator.init_list, values)
        for below in populator.related_populators:
            _populate(below, row, made)
    populator.local_setter(from_obj, made)
    if made is not None:
        populator.remote_setter(made, from_obj)


def prepared_rows(sql: str, params: tuple) -> list[tuple]:
    """Run ``sql`` and return its rows, as every compiled query runs: a prepared statement on
    PostgreSQL, planned once per connection; Django's cursor elsewhere. Also for a write of a
    fixed shape run at every report (``services.report``), with its ``RETURNING`` rows."""
    # The thread's connection itself, not ``django.db.connection``, a proxy that looks it up
    # again at every attribute (a dozen lookups a statement, at every report and poll).
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    import psycopg

    db.validate_no_broken_transaction()  # as Django's cursors refuse, after an error
    db.close_if_health_check_failed()  # as Django's cursors do (CONN_HEALTH_CHECKS)
    db.ensure_connection()
    start = time.perf_counter()
    with db.wrap_database_errors, psycopg.Cursor(db.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        rows = cursor.fetchall()
    if db.queries_logged:  # as Django's own cursors log
        db.queries_log.append(
            {"sql": db.ops.compose_sql(sql, params), "time": f"{time.perf_counter() - start:.3f}"}
        )
    return rows
