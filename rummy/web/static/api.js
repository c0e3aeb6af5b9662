// The API client: every request the page makes goes through api() or apiLines().

// GET `path`, or POST `body` as JSON; the answer's JSON. A failure throws the API's error object
// ({error: LINE, errors: [LINE, ...]}), or one made here in that shape when there is none.
export async function api(path, body) {
  return answerOf(await send(path, body));
}

// POST `body` for an answer that may come as lines (NDJSON, the API's "progress": true): each
// progress line ({progress: ...}) goes to `onLine` as it arrives; the last line, the answer, is
// returned as api() returns its answer. A last line {error, errors} is thrown as api() throws an error. An answer that is plain
// JSON (no lines) is returned as api() returns it. `signal` (an AbortController's) stops the
// request: the server sees the client gone and stops its work; then this throws {aborted: true}.
export async function apiLines(path, body, onLine, signal) {
  const response = await send(path, body, signal);
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || !type.includes("ndjson") || !response.body) return answerOf(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = "", last = null;
  const take = (line) => {
    if (!line.trim()) return;
    let data;
    try { data = JSON.parse(line); } catch {
      throw {error: "the server's answer was cut or garbled (a line that is not JSON)", errors: []};
    }
    if (!data || data.progress === undefined) { last = data; return; }
    try { onLine(data); } catch (error) {  // the page's own fault, not the server's: said as such
      throw {error: "the page could not show the search's progress (" + error.message + ")", errors: []};
    }
  };
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      pending += decoder.decode(value, {stream: true});
      const lines = pending.split("\n");
      pending = lines.pop();
      lines.forEach(take);
    }
    take(pending + decoder.decode());
  } catch (error) {
    // A garbled line or the page's own fault: the request stops too (the server sees the client gone
    // and stops the search, which would otherwise run on to its limit with nobody reading).
    reader.cancel().catch(() => {});
    throw failure(error, signal);
  }
  if (last === null) throw {error: "the server stopped answering before the end of the search", errors: []};
  if (last.error) throw last;
  return last;
}

async function send(path, body, signal) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  if (signal) init.signal = signal;
  try {
    return await fetch(path, init);
  } catch (error) {
    throw failure(error, signal);
  }
}

// A fetch or a read that failed: stopped by the page ({aborted: true}), or the server gone.
function failure(error, signal) {
  if (signal && signal.aborted) return {aborted: true, error: "stopped", errors: []};
  if (error && error.error !== undefined) return error;  // one of ours (a garbled line)
  return {error: "the server did not answer (" + (error && error.message) + ")", errors: []};
}

async function answerOf(response) {
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: told below */ }
  if (!response.ok) {
    throw data && data.error ? data : {error: "HTTP " + response.status, errors: []};
  }
  return data;
}
