// The dealer terminal (/) and the pit view (/pit): draws the table's snapshot, sent by the daemon as
// server-sent events after every journal commit, and sends only the decisions the snapshot offers.
// The page keeps no state of its own: after a reconnect (a restart of the daemon) it draws what comes.
(function () {
  "use strict";
  var PIT = location.pathname === "/pit";
  var view = document.getElementById("view");
  var state = null, busy = false, voidArmed = 0, pick = null;
  var WORDS = {stand: "Stand", double: "Double", split: "Split", insurance: "Insurance", even_money: "Even money",
    surrender: "Surrender", burn: "Burn", fold: "Fold", play: "Play", raise: "Raise", call: "Call", check: "Check",
    puck_override: "Puck override"};
  var SUITS = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function cap(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : ""; }
  function word(action) { return WORDS[action] || action.replace(/_/g, " ").replace(/^./, function (c) { return c.toUpperCase(); }); }
  function card(text) {
    if (text === "down") return el("span", "card down");
    var rank = text.slice(0, -1), suit = text.slice(-1).toLowerCase();
    if (text.toUpperCase() === "JK") return el("span", "card", "JK");
    var c = el("span", "card" + (suit === "h" || suit === "d" ? " red" : ""), (rank === "T" ? "10" : rank) + (SUITS[suit] || suit));
    c.setAttribute("data-card", text);
    return c;
  }
  function cards(list) {
    var row = el("span", "cards");
    (list || []).forEach(function (c) { row.appendChild(card(c)); });
    return row;
  }
  function toast(text, bad) {
    var t = document.getElementById("toast");
    t.textContent = text; t.className = "toast show" + (bad ? " bad" : "");
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { t.className = "toast"; }, bad ? 4000 : 1500);
  }
  function post(path, body) {
    if (busy) return Promise.resolve(null);
    busy = true;
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json", "X-Tablectl": "1"},
      body: JSON.stringify(body || {})})
      .then(function (r) {
        if (r.status === 401) { location.href = "/login" + (PIT ? "?next=pit" : ""); return null; }
        return r.json();
      })
      .then(function (a) { busy = false; if (a && !a.ok) toast(a.text, true); return a; })
      .catch(function () { busy = false; toast("The table does not answer: wait, then tap again.", true); return null; });
  }
  function money(minor) {
    var m = state.minor_unit || 1;
    if (m <= 1) return String(minor);
    var digits = String(m - 1).length, whole = Math.floor(minor / m), part = String(minor % m);
    while (part.length < digits) part = "0" + part;
    return whole + "." + part;
  }

  // -- the bar

  function bar(s) {
    document.getElementById("game").textContent = s.game_name + " " + s.variant.toUpperCase() + " · " + s.table;
    document.getElementById("round").textContent = "Round " + s.round;
    document.getElementById("user").textContent = s.user ? s.user.name + " (" + s.user.role + ")" : "";
    var lamps = document.getElementById("tower").children;
    ["red", "amber", "green"].forEach(function (lamp, i) {
      var how = s.tower[lamp];
      lamps[i].className = "lamp " + lamp + (how === "on" ? " on" : how === "flash" ? " flash" : "");
    });
  }

  // -- the dealer page

  function layoutPanel(s) {
    var panel = el("div", "layout");
    var seen = {};
    if (s.layout) {
      var dealer = el("div", "dealer-row");
      dealer.appendChild(el("span", "label", "Dealer"));
      dealer.appendChild(cards(s.layout.dealer.cards));
      if (s.layout.dealer.total !== undefined) dealer.appendChild(el("span", "total", String(s.layout.dealer.total)));
      panel.appendChild(dealer);
    }
    var boxes = el("div", "boxes");
    var bets = {};
    s.bets.forEach(function (b) { bets[b.seat] = b.bets; });
    var turn = s.legal.decisions.length ? s.legal.decisions[0].seat : s.prompt.seat;
    var drawn = (s.layout && s.layout.boxes) || [];
    var seats = drawn.map(function (b) { return b.seat; });
    s.bets.forEach(function (b) { if (seats.indexOf(b.seat) < 0) { seats.push(b.seat); drawn.push({seat: b.seat, hands: []}); } });
    drawn.sort(function (a, b) { return a.seat - b.seat; });
    drawn.forEach(function (b) {
      if (seen[b.seat]) return;
      seen[b.seat] = true;
      var box = el("div", "box" + (b.seat === turn ? " turn" : ""));
      box.setAttribute("data-seat", b.seat);
      var head = el("div", "head");
      head.appendChild(el("b", null, "Box " + b.seat));
      if (b.insured) head.appendChild(el("span", null, "insured"));
      box.appendChild(head);
      var list = (bets[b.seat] || []).filter(function (x) { return x.spot !== "puck"; })
        .map(function (x) { return x.spot + (x.amount ? " " + x.amount : "") + (x.player ? " (" + x.player + ")" : ""); });
      box.appendChild(el("div", "bets", list.join(" · ")));
      (b.hands || []).forEach(function (h) {
        var hand = el("div", "hand");
        hand.appendChild(cards(h.cards));
        if (h.total !== undefined) hand.appendChild(el("span", "total", String(h.total)));
        if (h.note) hand.appendChild(el("div", "note", h.note));
        box.appendChild(hand);
      });
      boxes.appendChild(box);
    });
    panel.appendChild(boxes);
    if (!s.layout && s.cards.length) {
      var row = el("div", "dealer-row");
      row.appendChild(el("span", "label", "Cards"));
      row.appendChild(cards(s.cards));
      panel.appendChild(row);
    }
    if (!drawn.length && !s.cards.length) panel.appendChild(el("div", "hint", s.betting_open ? "Bets are open." : ""));
    return panel;
  }

  function decisionsPanel(s) {
    var panel = el("div", "panel");
    panel.appendChild(el("h3", null, "Decisions"));
    var grid = el("div", "decisions");
    grid.id = "decisions";
    var keys = {};
    (s.keypad || []).forEach(function (k) { keys[k.seat + ":" + k.action] = k.key; });
    var seat = null;
    s.legal.decisions.forEach(function (d) {
      if (d.seat !== seat) { seat = d.seat; grid.appendChild(el("div", "seat", "Box " + d.seat)); }
      var choices = [];
      if (d.plain) choices.push({label: word(d.action)});
      (d.multiples || []).forEach(function (m) { choices.push({label: word(d.action) + " " + m + "x", multiple: m}); });
      // a bet or raise the player sizes (a poker game): the least the round takes, as one tap; a fixed bet likewise
      if (!d.plain && d.least !== undefined) choices.push({label: word(d.action) + " " + money(d.least), amount: d.least});
      if (d.player) choices.forEach(function (c) { c.label += " (" + d.player + ")"; });  // a back bettor's own
      choices.forEach(function (c) {
        var b = el("button", "btn " + d.action, c.label);
        b.setAttribute("data-action", d.action); b.setAttribute("data-seat", d.seat);
        if (d.player) b.setAttribute("data-player", d.player);
        if (c.multiple) b.setAttribute("data-multiple", c.multiple);
        if (c.amount) b.setAttribute("data-amount", c.amount);
        var key = keys[d.seat + ":" + d.action];
        if (key && !c.multiple && (d.plain || d.least === d.most)) b.appendChild(el("span", "key", String(key)));
        b.addEventListener("click", function () {
          post("/api/act", {seat: d.seat, action: d.action, multiple: c.multiple, amount: c.amount, player: d.player});
        });
        grid.appendChild(b);
      });
      if (d.cards) {  // a draw, a discard, the setting of hands: the croupier picks the box's cards
        var pickBtn = el("button", "btn " + d.action, word(d.action) + " …");
        pickBtn.appendChild(el("small", null, "choose the cards"));
        pickBtn.setAttribute("data-cards-for", d.action); pickBtn.setAttribute("data-seat", d.seat);
        pickBtn.addEventListener("click", function () { cardPad(d); });
        grid.appendChild(pickBtn);
      }
      if (d.amount && (d.least === undefined || d.least < d.most)) {
        var a = el("button", "btn small " + d.action, word(d.action) + " …");
        a.appendChild(el("small", null, "another amount"));
        a.setAttribute("data-amount-for", d.action); a.setAttribute("data-seat", d.seat);
        a.addEventListener("click", function () { amountPad(d); });
        grid.appendChild(a);
      }
    });
    if (!s.legal.decisions.length) {
      var hint = s.legal.expects.indexOf("card") >= 0 ? "Deal from the shoe: " + s.prompt.text
        : s.complete ? "Round settled." : "No decision is waiting.";
      grid.appendChild(el("div", "hint wide", hint));
    }
    panel.appendChild(grid);
    return panel;
  }

  function amountPad(d) {
    var entry = "";
    var sheet = document.getElementById("sheet");
    sheet.innerHTML = "";
    var span = d.least !== undefined ? ", " + money(d.least) + " to " + money(d.most) : "";
    sheet.appendChild(el("h3", null, word(d.action) + " · box " + d.seat + " (" + state.currency + span + ")"));
    var shown = el("div", "entry", "0");
    shown.id = "amount-entry";
    sheet.appendChild(shown);
    var pad = el("div", "pad");
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "Cancel", "0", "OK"].forEach(function (k) {
      var b = el("button", k === "OK" ? "ok" : k === "Cancel" ? "cancel" : "", k);
      b.setAttribute("data-key", k);
      b.addEventListener("click", function () {
        if (k === "Cancel") return close();
        if (k === "OK") {
          var amount = parseInt(entry || "0", 10) * (state.minor_unit || 1);
          close();
          if (amount > 0) post("/api/act", {seat: d.seat, action: d.action, amount: amount, player: d.player});
          return;
        }
        if (entry.length < 7) entry = (entry + k).replace(/^0+/, "");
        shown.textContent = entry || "0";
      });
      pad.appendChild(b);
    });
    sheet.appendChild(pad);
    document.getElementById("modal").className = "modal show";
    function close() { document.getElementById("modal").className = "modal"; }
  }

  function cardPad(d) {
    // the box's cards, tapped in the order the decision wants (the order is the game's words); OK sends them
    var c = d.cards, chosen = [];
    var sheet = document.getElementById("sheet");
    sheet.innerHTML = "";
    var count = c.least === c.most ? String(c.least) : c.least + " to " + c.most;
    sheet.appendChild(el("h3", null, word(d.action) + " · box " + d.seat + ": " + count + " card" +
      (c.most > 1 ? "s" : "")));
    if (c.order) sheet.appendChild(el("div", "hint", "In this order: " + c.order));
    var row = el("div", "pick");
    var ok = el("button", "ok", "OK");
    function render() {
      Array.prototype.forEach.call(row.children, function (b) {
        var i = chosen.indexOf(b.getAttribute("data-pick"));
        b.className = "pick-card" + (i >= 0 ? " chosen" : "");
        b.querySelector(".order").textContent = i >= 0 ? String(i + 1) : "";
      });
      ok.disabled = chosen.length < c.least || chosen.length > c.most;
    }
    c.from.forEach(function (text) {
      var b = el("button", "pick-card");
      b.setAttribute("data-pick", text);
      b.appendChild(card(text));
      b.appendChild(el("span", "order", ""));
      b.addEventListener("click", function () {
        var i = chosen.indexOf(text);
        if (i >= 0) chosen.splice(i, 1); else if (chosen.length < c.most) chosen.push(text);
        render();
      });
      row.appendChild(b);
    });
    sheet.appendChild(row);
    var pad = el("div", "pad");
    var cancel = el("button", "cancel", "Cancel");
    cancel.setAttribute("data-key", "Cancel"); ok.setAttribute("data-key", "OK");
    cancel.addEventListener("click", close);
    ok.addEventListener("click", function () {
      close();
      post("/api/act", {seat: d.seat, action: d.action, cards: chosen, player: d.player});
    });
    pad.appendChild(cancel); pad.appendChild(el("span")); pad.appendChild(ok);
    sheet.appendChild(pad);
    render();
    document.getElementById("modal").className = "modal show";
    function close() { document.getElementById("modal").className = "modal"; }
  }

  function pendingPanel(s) {
    var p = s.pending;
    var panel = el("div", "panel pending");
    panel.id = "pending";
    panel.appendChild(el("h3", null, "Camera unsure"));
    panel.appendChild(el("div", "hint", p.reason));
    if (p.kind === "wheel") {
      var guess = p.values[0];
      var ok = el("button", "btn confirm", guess === null || guess === undefined ? "Enter the number" : "Confirm " + guess);
      ok.id = "confirm";
      ok.addEventListener("click", function () {
        if (guess === null || guess === undefined) return numberPad();
        post("/api/confirm", {});
      });
      panel.appendChild(ok);
      if (guess !== null && guess !== undefined) {
        var other = el("button", "btn small", "Another number …");
        other.style.width = "100%"; other.style.marginTop = "6px";
        other.addEventListener("click", numberPad);
        panel.appendChild(other);
      }
    } else {
      if (!pick || pick.seq !== p.seq) pick = {seq: p.seq, values: p.values.slice()};
      p.values.forEach(function (v, i) {
        var row = el("div", "dice-pick");
        for (var n = 1; n <= 6; n++) {
          (function (n) {
            var b = el("button", pick.values[i] === n ? "on" : "", String(n));
            b.addEventListener("click", function () { pick.values[i] = n; render(); });
            row.appendChild(b);
          })(n);
        }
        if (p.colors[i]) panel.appendChild(el("div", "hint", p.colors[i]));
        panel.appendChild(row);
      });
      var whole = pick.values.every(function (v) { return v >= 1 && v <= 6; });
      var okd = el("button", "btn confirm", whole ? "Confirm " + pick.values.join(" ") : "Tap every die");
      okd.id = "confirm";
      okd.addEventListener("click", function () { if (whole) post("/api/confirm", {values: pick.values}); });
      panel.appendChild(okd);
    }
    return panel;
  }

  function numberPad() {
    var entry = "";
    var sheet = document.getElementById("sheet");
    sheet.innerHTML = "";
    sheet.appendChild(el("h3", null, "The winning number"));
    var shown = el("div", "entry", "");
    sheet.appendChild(shown);
    var pad = el("div", "pad");
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "Cancel", "0", "OK"].forEach(function (k) {
      var b = el("button", k === "OK" ? "ok" : k === "Cancel" ? "cancel" : "", k);
      b.setAttribute("data-key", k);
      b.addEventListener("click", function () {
        if (k === "Cancel") { document.getElementById("modal").className = "modal"; return; }
        if (k === "OK") {
          document.getElementById("modal").className = "modal";
          if (entry !== "") post("/api/confirm", {number: parseInt(entry, 10)});
          return;
        }
        if (entry.length < 2) entry += k;
        shown.textContent = entry;
      });
      pad.appendChild(b);
    });
    sheet.appendChild(pad);
    document.getElementById("modal").className = "modal show";
  }

  function tablePanel(s) {
    var panel = el("div", "panel");
    panel.appendChild(el("h3", null, "Table"));
    if (s.legal.close_bets) {
      var nmb = el("button", "btn nomore", s.betting_open ? "No more bets"
        : s.legal.expects.indexOf("insurance") >= 0 ? "No more insurance" : "Close");
      nmb.id = "close-bets";
      nmb.addEventListener("click", function () { post("/api/close_bets"); });
      panel.appendChild(nmb);
    }
    if (s.legal.void) {
      var v = el("button", "btn void" + (voidArmed > Date.now() ? " armed" : ""), voidArmed > Date.now() ? "Tap again to void" : "Void (omslag)");
      v.id = "void";
      v.style.marginTop = "6px";
      v.addEventListener("click", function () {
        if (voidArmed > Date.now()) { voidArmed = 0; post("/api/void", {reason: "the croupier voided it at the terminal"}); }
        else { voidArmed = Date.now() + 3000; setTimeout(render, 3100); }
        render();
      });
      panel.appendChild(v);
    }
    if (!s.legal.close_bets && !s.legal.void) panel.appendChild(el("div", "hint", s.waiting_for));
    return panel;
  }

  function faultsPanel(s) {
    var panel = el("div", "panel");
    panel.id = "faults";
    panel.appendChild(el("h3", null, "Faults"));
    s.faults.forEach(function (f) {
      var row = el("div", "fault");
      var text = el("div");
      text.appendChild(el("b", null, f.name));
      text.appendChild(el("div", null, f.text));
      row.appendChild(text);
      if (s.user && s.user.role === "supervisor" && f.name !== "journal") {
        var b = el("button", "btn", "Clear");
        b.setAttribute("data-fault", f.name);
        b.addEventListener("click", function () { post("/api/clear_fault", {name: f.name}); });
        row.appendChild(b);
      } else if (f.name !== "journal") {
        row.appendChild(el("span", "hint", "a supervisor clears it"));
      }
      panel.appendChild(row);
    });
    return panel;
  }

  function dealer(s) {
    var main = el("main", "dealer");
    var left = el("div", "left");
    var prompt = el("div", "prompt" + (s.accepting ? "" : " stopped"), cap(s.pending ? s.pending.prompt : s.prompt.text));
    prompt.id = "prompt";
    if (!s.accepting) prompt.appendChild(el("small", null, "Input is stopped: " + s.faults.map(function (f) { return f.text; }).join("; ")));
    else if (s.pending) prompt.appendChild(el("small", null, s.prompt.text));
    left.appendChild(prompt);
    left.appendChild(layoutPanel(s));
    if (s.rejects.length) left.appendChild(el("div", "rejects", "Refused: " + s.rejects[s.rejects.length - 1].reason));
    main.appendChild(left);
    var right = el("div", "right");
    if (s.pending) right.appendChild(pendingPanel(s));
    right.appendChild(decisionsPanel(s));
    right.appendChild(tablePanel(s));
    if (s.faults.length) right.appendChild(faultsPanel(s));
    main.appendChild(right);
    return main;
  }

  // -- the pit view

  function stat(label, value, cls) {
    var s = el("div", "stat" + (cls ? " " + cls : ""));
    s.appendChild(el("div", "v", value));
    s.appendChild(el("div", "k", label));
    return s;
  }

  function numberBall(m, first) {
    var b = el("span", "num " + (m.color || "") + (first ? " first" : ""), String(m.number));
    return b;
  }

  function board(s) {
    var box = el("div", "board");
    box.id = "board";
    var b = s.board;
    if (!b) {  // a card game: the open round as the croupier sees it, read-only
      box.appendChild(el("h3", null, "Round " + s.round));
      box.appendChild(layoutPanel(s));
      return box;
    }
    if (!b.rounds) { box.appendChild(el("div", "empty-board", "No results yet on this table.")); return box; }
    if (b.kind === "numbers") {
      box.appendChild(el("h3", null, "Last numbers"));
      var strip = el("div", "numbers");
      b.last.slice(0, window.innerWidth >= 1200 ? 30 : 18).forEach(function (m, i) { strip.appendChild(numberBall(m, i === 0)); });
      box.appendChild(strip);
      var hc = el("div", "hotcold");
      [["hot", "Hot"], ["cold", "Cold"]].forEach(function (pair) {
        var col = el("div", pair[0]);
        col.appendChild(el("h4", null, pair[1] + " (last " + b.rounds + ")"));
        var row = el("div", "numbers");
        b[pair[0]].forEach(function (h) {
          var ball = el("span", "num " + (h.color || "black"), String(h.number));
          ball.appendChild(el("sup", null, String(h.count)));
          row.appendChild(ball);
        });
        col.appendChild(row);
        hc.appendChild(col);
      });
      box.appendChild(hc);
    } else if (b.kind === "dice") {
      box.appendChild(el("h3", null, "Last throws"));
      var list = el("div", "throws");
      b.last.slice(0, window.innerWidth >= 1200 ? 11 : 9).forEach(function (m, i) {
        var row = el("div", "throw" + (i === 0 ? " first" : ""));
        m.dice.forEach(function (v, j) { row.appendChild(el("span", "die " + ((m.colors && m.colors[j]) || ""), String(v))); });
        row.appendChild(el("span", "tot", m.number !== undefined ? String(m.number) : String(m.total)));
        if (m.number !== undefined) row.appendChild(el("span", "tag", "sum " + m.total));
        if (m.triple) row.appendChild(el("span", "tag", "triple"));
        else if (m.big) row.appendChild(el("span", "tag", "big"));
        else if (m.small) row.appendChild(el("span", "tag", "small"));
        list.appendChild(row);
      });
      box.appendChild(list);
    } else if (b.kind === "road") {
      var rb = el("div", "roadbox");
      rb.appendChild(el("h4", null, "Big road"));
      var road = el("div", "road");
      road.id = "big-road";
      var cols = 0;
      b.big_road.forEach(function (c) { cols = Math.max(cols, c.col + 1); });
      var fit = Math.max(10, Math.floor((window.innerWidth * 1.4 / 2.4 - 44) / (window.innerWidth >= 1200 ? 34 : 20)));
      var shown = Math.min(cols, fit), first = cols - shown;
      var cells = {};
      b.big_road.forEach(function (c) { cells[c.col + ":" + c.row] = c; });
      for (var x = first; x < first + Math.max(shown, Math.min(fit, 12)); x++) {
        for (var y = 0; y < 6; y++) {
          var c = cells[x + ":" + y];
          var dot = el("span", "c " + (c ? "ring " + c.winner : "empty"));
          if (c && c.ties) { dot.appendChild(el("i", "tie")); }
          road.appendChild(dot);
        }
      }
      rb.appendChild(road);
      rb.appendChild(el("h4", null, "Bead plate"));
      var bead = el("div", "road");
      bead.id = "bead-plate";
      var beads = b.bead.slice(-fit);
      for (var i = 0; i < Math.max(beads.length, Math.min(fit, 12)); i++) {
        for (var j = 0; j < 6; j++) {
          var letter = beads[i] && beads[i][j];
          var d = el("span", "c " + (letter || "empty"), letter || "");
          bead.appendChild(d);
        }
      }
      rb.appendChild(bead);
      var counts = el("div", "counts");
      [["punto", "Punto"], ["banco", "Banco"], ["tie", "Tie"]].forEach(function (p) {
        var c = el("span", null, p[1] + " ");
        c.appendChild(el("b", null, String(b.counts[p[0]] || 0)));
        counts.appendChild(c);
      });
      rb.appendChild(counts);
      box.appendChild(rb);
    }
    return box;
  }

  var TALLY = [
    [["color", "red", "Red"], ["color", "black", "Black"], ["color", "green", "Zero"]],
    [["parity", "odd", "Odd"], ["parity", "even", "Even"], ["half", "low", "1-18"], ["half", "high", "19-36"]],
    [["dozen", "1", "1st 12"], ["dozen", "2", "2nd 12"], ["dozen", "3", "3rd 12"]],
    [["big", "true", "Big"], ["small", "true", "Small"], ["triple", "true", "Triple"]],
    [["below_above", "below", "Below 7"], ["below_above", "seven", "Seven"], ["below_above", "above", "Above 7"]]];

  function tallyPanel(b) {
    var panel = el("div", "panel tally");
    panel.appendChild(el("h3", null, "Last " + b.rounds + " " + (b.kind === "dice" ? "throws" : "spins")));
    TALLY.forEach(function (cells) {
      if (!cells.some(function (c) { return b.tally[c[0]]; })) return;
      var row = el("div", "tally-row");
      cells.forEach(function (c) {
        var n = (b.tally[c[0]] || {})[c[1]] || 0, pct = Math.round(100 * n / b.rounds);
        var cell = el("div", "tally-cell " + c[0] + "-" + c[1]);
        cell.appendChild(el("span", "t", c[2]));
        cell.appendChild(el("b", null, pct + "%"));
        var bar = el("i", "fill");
        bar.style.width = pct + "%";
        cell.appendChild(bar);
        row.appendChild(cell);
      });
      panel.appendChild(row);
    });
    return panel;
  }

  function lastResult(s) {
    var div = el("div", "lastres");
    if (!s.last_settlements.length && !s.last_outcome) { div.textContent = "No round settled yet."; return div; }
    s.last_settlements.slice(0, 10).forEach(function (x) {
      var line = el("div", x.result === "win" ? "win" : x.result === "lose" ? "lose" : "");
      line.textContent = "Box " + x.seat + " " + x.spot + (x.hand ? " hand " + x.hand : "") + ": " + x.result +
        (x.net !== undefined ? " (" + (x.net > 0 ? "+" : "") + money(x.net) + ")" : "");
      div.appendChild(line);
    });
    return div;
  }

  function pit(s) {
    var main = el("main", "pit");
    var stats = el("div", "stats");
    var st = !s.accepting ? "STOPPED" : s.faults.length ? "Fault" : s.pending ? "Waiting for croupier" :
      s.betting_open ? "Bets open" : s.complete ? "Settled" : "In play";
    stats.appendChild(stat("State", st, "state" + (s.faults.length ? " bad" : "")));
    stats.appendChild(stat("Round", String(s.round)));
    stats.appendChild(stat("Hands / hour", String(s.hands_per_hour)));
    stats.appendChild(stat("Faults", String(s.faults.length), s.faults.length ? "bad" : ""));
    stats.appendChild(stat("Journal", "#" + s.seq));
    main.appendChild(stats);
    main.appendChild(board(s));
    var side = el("div", "side");
    var now = el("div", "panel");
    now.appendChild(el("h3", null, "Now"));
    var p = el("div", "lastres", cap(s.pending ? s.pending.prompt : s.prompt.text));
    p.id = "pit-prompt";
    now.appendChild(p);
    side.appendChild(now);
    if (s.board && s.board.tally && s.board.rounds) side.appendChild(tallyPanel(s.board));
    var meters = Object.keys(s.meters || {});
    if (meters.length) {
      var mp = el("div", "panel");
      mp.appendChild(el("h3", null, "Jackpot meters (" + s.currency + ")"));
      meters.forEach(function (m) {
        var row = el("div", "meter");
        row.appendChild(el("span", null, m));
        row.appendChild(el("b", null, String(s.meters[m])));
        mp.appendChild(row);
      });
      side.appendChild(mp);
    }
    {
      var lr = el("div", "panel");
      lr.appendChild(el("h3", null, "Last round"));
      lr.appendChild(lastResult(s));
      side.appendChild(lr);
    }
    if (s.limits && s.limits.length) {
      var lp = el("div", "panel limits");
      lp.appendChild(el("h3", null, "Limits (" + s.currency + ")"));
      s.limits.slice(0, 8).forEach(function (l) {
        var row = el("div", "limit");
        row.appendChild(el("span", null, l.spot));
        row.appendChild(el("b", null, l.min + " – " + (l.max === null ? "no maximum" : l.max)));
        lp.appendChild(row);
      });
      side.appendChild(lp);
    }
    if (s.faults.length) {
      var fp = el("div", "panel");
      fp.appendChild(el("h3", null, "Faults"));
      s.faults.forEach(function (f) {
        var row = el("div", "fault");
        row.appendChild(el("b", null, f.name));
        row.appendChild(el("span", null, f.text));
        fp.appendChild(row);
      });
      side.appendChild(fp);
    }
    main.appendChild(side);
    return main;
  }

  function render() {
    if (!state) return;
    bar(state);
    var next = PIT ? pit(state) : dealer(state);
    next.id = "view";
    next.setAttribute("data-version", state.version);
    next.setAttribute("data-seq", state.seq);
    view.replaceWith(next);
    view = next;
  }

  // -- the live link

  function connect() {
    var source = new EventSource("/api/events");
    var link = document.getElementById("link");
    source.onopen = function () { link.textContent = "live"; link.className = "link"; };
    source.onmessage = function (e) {
      state = JSON.parse(e.data);
      window.tablectlSeen = {seq: state.seq, version: state.version, at: performance.now()};
      render();
    };
    source.onerror = function () {
      link.textContent = "reconnecting"; link.className = "link down";
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        fetch("/api/state").then(function (r) {
          if (r.status === 401) location.href = "/login" + (PIT ? "?next=pit" : "");
        }).catch(function () {});
        setTimeout(connect, 1000);
      }
    };
  }
  document.getElementById("logout").addEventListener("click", function () {
    post("/api/logout").then(function () { location.href = "/login" + (PIT ? "?next=pit" : ""); });
  });
  function tick() {
    var d = new Date();
    document.getElementById("clock").textContent = ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }
  tick();
  setInterval(tick, 1000);
  document.title = PIT ? "tablectl · pit view" : "tablectl · dealer";
  connect();
})();
