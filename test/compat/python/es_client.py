"""The official `elasticsearch` Python client (8.x or 9.x, whichever the virtual environment holds), unmodified,
against a real Gannet node: info and the product check, health, cat.*, tasks list/get/cancel, index/get/search/
delete, helpers.bulk, helpers.parallel_bulk, helpers.scan, a reindex started with wait_for_completion=False and
followed with tasks.get, and the elasticsearch.dsl document and search layer. A failure is a Gannet
compatibility bug, never a reason to change the client.

Usage: python es_client.py http://127.0.0.1:PORT
"""
import sys
import warnings

import elasticsearch
from elasticsearch import Elasticsearch, NotFoundError, helpers
from elasticsearch.dsl import Date, Document, Integer, Keyword, Search, Text

from checks import CheckRun, package_docs, wait_until

# tasks.* are "technical preview" in the client's spec: it warns on every call. Not what this suite checks.
warnings.filterwarnings("ignore", category=getattr(elasticsearch, "GeneralAvailabilityWarning", Warning))

url = sys.argv[1]
major = elasticsearch.__versionstr__.split(".")[0]
es = Elasticsearch(url, request_timeout=60)
run = CheckRun(f"elasticsearch-py {elasticsearch.__versionstr__}")
prefix = f"py-es{major}"
DOCS = 300


def info():
    body = es.info()
    assert body["version"]["number"].split(".")[0] in ("8", "9"), body
    assert body["tagline"] == "You Know, for Search", body
    assert es.ping() is True


def health():
    body = es.cluster.health(wait_for_status="yellow", timeout="10s")
    assert body["status"] in ("green", "yellow"), body
    assert body["timed_out"] is False
    assert body["number_of_nodes"] >= 1
    try:
        es.cluster.health(wait_for_nodes="10", timeout="1ms")
        raise AssertionError("a health wait that times out must answer 408")
    except elasticsearch.ApiError as err:
        assert err.meta.status == 408, err.meta.status
        assert err.body["timed_out"] is True


def create_index():
    es.indices.create(
        index=f"{prefix}-packages",
        settings={"number_of_shards": 2, "number_of_replicas": 0},
        mappings={"properties": {"package": {"type": "keyword"}, "section": {"type": "keyword"}, "installed_size": {"type": "integer"}, "description": {"type": "text"}}},
    )
    assert es.indices.exists(index=f"{prefix}-packages")


def index_get_search_delete():
    index = f"{prefix}-packages"
    created = es.index(index=index, id="one", document={"package": "one", "section": "net", "installed_size": 5, "description": "the first package"}, refresh=True)
    assert created["result"] == "created", created
    got = es.get(index=index, id="one")
    assert got["found"] is True and got["_source"]["package"] == "one", got
    found = es.search(index=index, query={"match": {"description": "first"}})
    assert found["hits"]["total"]["value"] == 1, found["hits"]
    assert found["hits"]["hits"][0]["_id"] == "one"
    assert es.exists(index=index, id="one")
    deleted = es.delete(index=index, id="one", refresh=True)
    assert deleted["result"] == "deleted", deleted
    try:
        es.get(index=index, id="one")
        raise AssertionError("a deleted document must be a 404")
    except NotFoundError as err:
        assert err.meta.status == 404


def bulk_helpers():
    index = f"{prefix}-packages"
    docs = package_docs(DOCS)
    ok, errors = helpers.bulk(es, ({"_index": index, "_id": d["package"], "_source": d} for d in docs[: DOCS // 2]), chunk_size=40)
    assert ok == DOCS // 2 and errors == [], (ok, errors)
    results = list(helpers.parallel_bulk(es, ({"_index": index, "_id": d["package"], "_source": d} for d in docs[DOCS // 2 :]), thread_count=2, chunk_size=25))
    assert len(results) == DOCS - DOCS // 2 and all(success for success, _ in results), results[:3]
    es.indices.refresh(index=index)
    assert es.count(index=index)["count"] == DOCS


def scan_helper():
    ids = {hit["_id"] for hit in helpers.scan(es, index=f"{prefix}-packages", query={"query": {"match_all": {}}}, size=70)}
    assert len(ids) == DOCS, len(ids)
    net = list(helpers.scan(es, index=f"{prefix}-packages", query={"query": {"term": {"section": "net"}}}, size=7, preserve_order=True))
    assert len(net) == DOCS // 5, len(net)


def cat_apis():
    nodes = es.cat.nodes(format="json", h="name,master,heap.percent")
    assert len(nodes) >= 1 and any(row["master"] == "*" for row in nodes), nodes.body
    text = es.cat.nodes(v=True)
    assert text.body.startswith("ip "), text.body
    allocation = es.cat.allocation(format="json", bytes="b")
    assert any(row.get("node") for row in allocation), allocation.body
    indices = es.cat.indices(index=f"{prefix}-*", format="json")
    assert [row["index"] for row in indices] == [f"{prefix}-packages"], indices.body
    assert indices[0]["docs.count"] == str(DOCS), indices.body
    shards = es.cat.shards(index=f"{prefix}-packages", format="json")
    assert len(shards) == 2, shards.body
    count = es.cat.count(index=f"{prefix}-packages", format="json")
    assert count[0]["count"] == str(DOCS), count.body
    assert es.cat.health(format="json")[0]["status"] in ("green", "yellow")
    tasks = es.cat.tasks(format="json", detailed=True)
    assert isinstance(tasks.body, list)


def reindex_as_task():
    started = es.reindex(source={"index": f"{prefix}-packages"}, dest={"index": f"{prefix}-copy"}, wait_for_completion=False, refresh=True)
    task_id = started["task"]
    done = es.tasks.get(task_id=task_id, wait_for_completion=True, timeout="60s")
    assert done["completed"] is True, done
    assert done["response"]["created"] == DOCS, done["response"]
    assert done["response"]["failures"] == []
    assert es.count(index=f"{prefix}-copy")["count"] == DOCS


def tasks_list_get_cancel():
    # A reindex throttled to 10 documents a second: alive long enough to be listed, read and cancelled.
    started = es.reindex(source={"index": f"{prefix}-packages", "size": 10}, dest={"index": f"{prefix}-slow"}, wait_for_completion=False, requests_per_second=10)
    task_id = started["task"]
    node_id = task_id.split(":")[0]
    listed = es.tasks.list(actions="*reindex", detailed=True)
    assert task_id.split(":")[1] in {str(t["id"]) for t in listed["nodes"][node_id]["tasks"].values()}, listed.body
    flat = es.tasks.list(actions="*reindex", group_by="none")
    assert any(f"{t['node']}:{t['id']}" == task_id for t in flat["tasks"]), flat.body
    running = es.tasks.get(task_id=task_id)
    assert running["completed"] is False and running["task"]["action"] == "indices:data/write/reindex", running.body
    cancelled = es.tasks.cancel(task_id=task_id, wait_for_completion=True)
    assert task_id in {f"{t['node']}:{t['id']}" for n in cancelled["nodes"].values() for t in n["tasks"].values()}, cancelled.body
    result = es.tasks.get(task_id=task_id, wait_for_completion=True, timeout="30s")
    assert result["completed"] is True and result["response"]["canceled"] == "by user request", result.body
    # Cancel by action: a second throttled reindex, cancelled through POST /_tasks/_cancel?actions=*reindex.
    second = es.reindex(source={"index": f"{prefix}-packages", "size": 10}, dest={"index": f"{prefix}-slow"}, wait_for_completion=False, requests_per_second=10)["task"]
    by_action = es.tasks.cancel(actions="*reindex", nodes=node_id)
    assert second.split(":")[1] in {str(t["id"]) for n in by_action["nodes"].values() for t in n["tasks"].values()}, by_action.body
    wait_until(lambda: es.tasks.get(task_id=second)["completed"], what="the cancelled reindex to end")
    try:
        es.tasks.get(task_id=f"{node_id}:999999999")
        raise AssertionError("an unknown task must be a 404")
    except NotFoundError as err:
        assert err.meta.status == 404


class Package(Document):
    package = Keyword()
    section = Keyword()
    installed_size = Integer()
    description = Text()
    uploaded = Date()

    class Index:
        name = f"{prefix}-dsl"
        settings = {"number_of_shards": 1, "number_of_replicas": 0}


def dsl_documents_and_search():
    Package.init(using=es)
    mapping = es.indices.get_mapping(index=Package.Index.name)[Package.Index.name]["mappings"]["properties"]
    assert mapping["package"] == {"type": "keyword"} and mapping["uploaded"] == {"type": "date"}, mapping
    for doc in package_docs(40):
        Package(meta={"id": doc["package"]}, uploaded="2024-05-01T10:00:00Z", **doc).save(using=es)
    Package._index.refresh(using=es)
    got = Package.get(id="pkg-0003", using=es)
    assert got.section == "net" and got.installed_size == 121, got.to_dict()
    assert got.uploaded.year == 2024
    got.update(using=es, installed_size=1, refresh=True)
    assert Package.get(id="pkg-0003", using=es).installed_size == 1
    search = Package.search(using=es).query("match", description="tools").filter("term", section="admin").sort("package")[:5]
    response = search.execute()
    assert response.hits.total.value == 2, response.hits.total
    assert [hit.package for hit in response] == ["pkg-0000", "pkg-0020"], [hit.package for hit in response]
    assert isinstance(response[0], Package)
    aggregated = Search(using=es, index=Package.Index.name).extra(size=0)
    aggregated.aggs.bucket("sections", "terms", field="section").metric("size", "avg", field="installed_size")
    buckets = aggregated.execute().aggregations.sections.buckets
    assert sorted((b.key, b.doc_count) for b in buckets) == [(s, 8) for s in ["admin", "devel", "libs", "net", "utils"]], buckets
    assert Package.search(using=es).count() == 40
    got.delete(using=es, refresh=True)
    assert Package.search(using=es).count() == 39


# Leftovers of an earlier run against the same node (names, not a wildcard: destructive_requires_name).
es.indices.delete(index=",".join(f"{prefix}-{name}" for name in ("packages", "copy", "slow", "dsl")), ignore_unavailable=True)

run.check("info and ping (product check)", info)
run.check("cluster.health, 408 on timeout", health)
run.check("indices.create", create_index)
run.check("index, get, search, exists, delete", index_get_search_delete)
run.check("helpers.bulk and helpers.parallel_bulk", bulk_helpers)
run.check("helpers.scan", scan_helper)
run.check("cat.nodes/allocation/indices/shards/count/health/tasks", cat_apis)
run.check("reindex wait_for_completion=False, then tasks.get", reindex_as_task)
run.check("tasks.list, tasks.get, tasks.cancel (by id and by action)", tasks_list_get_cancel)
run.check("elasticsearch.dsl Document and Search", dsl_documents_and_search)
run.finish()
