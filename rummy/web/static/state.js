// What the page holds, in one object every module shares: the position as loaded, and what the
// panels show. Modules read and write its fields; nothing else is kept between events (the drag
// in progress lives in mymove.js).
export const state = {
  text: null,     // the position's text, as sent to the API
  id: null,       // the shipped id when loaded from the list (hints use its stored answer)
  view: null,     // /api/show's view
  shown: null,    // /api/show's whole answer (the editor's Edit starts from it)
  best: null,     // /api/best's answer
  bestLimit: null,  // the time limit (s) that answer was searched with
  searched: null,   // the time limit of the last search (Search longer doubles it)
  searching: null,  // the AbortController of the Best move search running (plan.js); a new position stops it
  frame: 0,       // the viewer's frame: 0 before the turn, k after step k
  move: null,     // the turn being built (My move), see newMove() in mymove.js
  moving: false,  // My move mode is on
  game: null,     // the game open (game.js)
  concealed: null,  // {code, names}: the hands the table hides while that position is shown (rummy's seats)
};
