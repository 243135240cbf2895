"""opensearch-py (OpenSearch's Python client, with its helpers and its document/search DSL), unmodified, against a
real Gannet node: the same checks as es_client.py, written the way opensearch-py takes its arguments (bodies as
`body=`; a server-side `timeout` goes to the query string only beside a `request_timeout`, else the client takes it
as its own socket timeout). A failure is a Gannet compatibility bug, never a reason to change the client.

Usage: python opensearch_client.py http://127.0.0.1:PORT
"""
import sys

import opensearchpy
from opensearchpy import Date, Document, Integer, Keyword, NotFoundError, OpenSearch, Search, Text, TransportError, helpers

from checks import CheckRun, package_docs, wait_until

url = sys.argv[1]
client = OpenSearch(hosts=[url], timeout=60)
run = CheckRun(f"opensearch-py {opensearchpy.__versionstr__}")
prefix = "py-os"
DOCS = 300


def info():
    body = client.info()
    assert body["version"]["number"], body
    assert client.ping() is True


def health():
    body = client.cluster.health(wait_for_status="yellow", timeout="10s", request_timeout=60)
    assert body["status"] in ("green", "yellow"), body
    assert body["timed_out"] is False
    try:
        client.cluster.health(wait_for_nodes="10", timeout="1ms", request_timeout=60)
        raise AssertionError("a health wait that times out must answer 408")
    except TransportError as err:
        assert err.status_code == 408, err.status_code
        assert err.info["timed_out"] is True


def create_index():
    client.indices.create(
        index=f"{prefix}-packages",
        body={
            "settings": {"number_of_shards": 2, "number_of_replicas": 0},
            "mappings": {"properties": {"package": {"type": "keyword"}, "section": {"type": "keyword"}, "installed_size": {"type": "integer"}, "description": {"type": "text"}}},
        },
    )
    assert client.indices.exists(index=f"{prefix}-packages")


def index_get_search_delete():
    index = f"{prefix}-packages"
    created = client.index(index=index, id="one", body={"package": "one", "section": "net", "installed_size": 5, "description": "the first package"}, refresh=True)
    assert created["result"] == "created", created
    got = client.get(index=index, id="one")
    assert got["found"] is True and got["_source"]["package"] == "one", got
    found = client.search(index=index, body={"query": {"match": {"description": "first"}}})
    assert found["hits"]["total"]["value"] == 1, found["hits"]
    assert client.exists(index=index, id="one")
    deleted = client.delete(index=index, id="one", refresh=True)
    assert deleted["result"] == "deleted", deleted
    try:
        client.get(index=index, id="one")
        raise AssertionError("a deleted document must be a 404")
    except NotFoundError as err:
        assert err.status_code == 404


def bulk_helpers():
    index = f"{prefix}-packages"
    docs = package_docs(DOCS)
    ok, errors = helpers.bulk(client, ({"_index": index, "_id": d["package"], "_source": d} for d in docs[: DOCS // 2]), chunk_size=40)
    assert ok == DOCS // 2 and errors == [], (ok, errors)
    results = list(helpers.parallel_bulk(client, ({"_index": index, "_id": d["package"], "_source": d} for d in docs[DOCS // 2 :]), thread_count=2, chunk_size=25))
    assert len(results) == DOCS - DOCS // 2 and all(success for success, _ in results), results[:3]
    client.indices.refresh(index=index)
    assert client.count(index=index)["count"] == DOCS


def scan_helper():
    ids = {hit["_id"] for hit in helpers.scan(client, index=f"{prefix}-packages", query={"query": {"match_all": {}}}, size=70)}
    assert len(ids) == DOCS, len(ids)
    net = list(helpers.scan(client, index=f"{prefix}-packages", query={"query": {"term": {"section": "net"}}}, size=7, preserve_order=True))
    assert len(net) == DOCS // 5, len(net)


def cat_apis():
    nodes = client.cat.nodes(format="json", h="name,master,heap.percent")
    assert len(nodes) >= 1 and any(row["master"] == "*" for row in nodes), nodes
    text = client.cat.nodes(v=True)
    assert text.startswith("ip "), text
    allocation = client.cat.allocation(format="json", bytes="b")
    assert any(row.get("node") for row in allocation), allocation
    indices = client.cat.indices(index=f"{prefix}-*", format="json")
    assert [row["index"] for row in indices] == [f"{prefix}-packages"], indices
    assert indices[0]["docs.count"] == str(DOCS), indices
    assert len(client.cat.shards(index=f"{prefix}-packages", format="json")) == 2
    assert client.cat.count(index=f"{prefix}-packages", format="json")[0]["count"] == str(DOCS)
    assert client.cat.health(format="json")[0]["status"] in ("green", "yellow")
    assert isinstance(client.cat.tasks(format="json", detailed=True), list)


def reindex_as_task():
    started = client.reindex(body={"source": {"index": f"{prefix}-packages"}, "dest": {"index": f"{prefix}-copy"}}, wait_for_completion=False, refresh=True)
    task_id = started["task"]
    done = client.tasks.get(task_id=task_id, wait_for_completion=True, timeout="60s", request_timeout=60)
    assert done["completed"] is True, done
    assert done["response"]["created"] == DOCS, done["response"]
    assert client.count(index=f"{prefix}-copy")["count"] == DOCS


def tasks_list_get_cancel():
    body = {"source": {"index": f"{prefix}-packages", "size": 10}, "dest": {"index": f"{prefix}-slow"}}
    task_id = client.reindex(body=body, wait_for_completion=False, requests_per_second=10)["task"]
    node_id = task_id.split(":")[0]
    listed = client.tasks.list(actions="*reindex", detailed=True)
    assert task_id.split(":")[1] in {str(t["id"]) for t in listed["nodes"][node_id]["tasks"].values()}, listed
    running = client.tasks.get(task_id=task_id)
    assert running["completed"] is False and running["task"]["action"] == "indices:data/write/reindex", running
    cancelled = client.tasks.cancel(task_id=task_id, wait_for_completion=True)
    assert task_id in {f"{t['node']}:{t['id']}" for n in cancelled["nodes"].values() for t in n["tasks"].values()}, cancelled
    result = client.tasks.get(task_id=task_id, wait_for_completion=True, timeout="30s", request_timeout=60)
    assert result["completed"] is True and result["response"]["canceled"] == "by user request", result
    second = client.reindex(body=body, wait_for_completion=False, requests_per_second=10)["task"]
    by_action = client.tasks.cancel(actions="*reindex", nodes=node_id)
    assert second.split(":")[1] in {str(t["id"]) for n in by_action["nodes"].values() for t in n["tasks"].values()}, by_action
    wait_until(lambda: client.tasks.get(task_id=second)["completed"], what="the cancelled reindex to end")
    try:
        client.tasks.get(task_id=f"{node_id}:999999999")
        raise AssertionError("an unknown task must be a 404")
    except NotFoundError as err:
        assert err.status_code == 404


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
    Package.init(using=client)
    mapping = client.indices.get_mapping(index=Package.Index.name)[Package.Index.name]["mappings"]["properties"]
    assert mapping["package"] == {"type": "keyword"} and mapping["uploaded"] == {"type": "date"}, mapping
    for doc in package_docs(40):
        Package(meta={"id": doc["package"]}, uploaded="2024-05-01T10:00:00Z", **doc).save(using=client)
    Package._index.refresh(using=client)
    got = Package.get(id="pkg-0003", using=client)
    assert got.section == "net" and got.installed_size == 121, got.to_dict()
    got.update(using=client, installed_size=1, refresh=True)
    assert Package.get(id="pkg-0003", using=client).installed_size == 1
    response = Package.search(using=client).query("match", description="tools").filter("term", section="admin").sort("package")[:5].execute()
    assert response.hits.total.value == 2, response.hits.total
    assert [hit.package for hit in response] == ["pkg-0000", "pkg-0020"], [hit.package for hit in response]
    aggregated = Search(using=client, index=Package.Index.name).extra(size=0)
    aggregated.aggs.bucket("sections", "terms", field="section").metric("size", "avg", field="installed_size")
    buckets = aggregated.execute().aggregations.sections.buckets
    assert sorted((b.key, b.doc_count) for b in buckets) == [(s, 8) for s in ["admin", "devel", "libs", "net", "utils"]], buckets
    got.delete(using=client, refresh=True)
    assert Package.search(using=client).count() == 39


# Leftovers of an earlier run against the same node (names, not a wildcard: destructive_requires_name).
client.indices.delete(index=",".join(f"{prefix}-{name}" for name in ("packages", "copy", "slow", "dsl")), ignore_unavailable=True)

run.check("info and ping", info)
run.check("cluster.health, 408 on timeout", health)
run.check("indices.create", create_index)
run.check("index, get, search, exists, delete", index_get_search_delete)
run.check("helpers.bulk and helpers.parallel_bulk", bulk_helpers)
run.check("helpers.scan", scan_helper)
run.check("cat.nodes/allocation/indices/shards/count/health/tasks", cat_apis)
run.check("reindex wait_for_completion=False, then tasks.get", reindex_as_task)
run.check("tasks.list, tasks.get, tasks.cancel (by id and by action)", tasks_list_get_cancel)
run.check("opensearchpy Document and Search (DSL)", dsl_documents_and_search)
run.finish()
