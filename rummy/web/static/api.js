// The API client: every request the page makes goes through api().

// GET `path`, or POST `body` as JSON; the answer's JSON. A failure throws the API's error object
// ({error: LINE, errors: [LINE, ...]}), or one made here in that shape when there is none.
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw {error: "the server did not answer (" + error.message + ")", errors: []};
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: told below */ }
  if (!response.ok) {
    throw data && data.error ? data : {error: "HTTP " + response.status, errors: []};
  }
  return data;
}
