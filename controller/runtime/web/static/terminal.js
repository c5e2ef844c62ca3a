// The dealer terminal (/) and the pit view (/pit): draws the table's snapshot, sent by the daemon as
// server-sent events after every journal commit, and sends only the decisions the snapshot offers.
// The page keeps no state of its own: after a reconnect (a restart of the daemon) it draws what comes.
(function () {
  "use strict";
  var PIT = location.pathname === "/pit";
  var view = document.getElementById("view");
  var state = null, busy = false, voidArmed = 0, pick = null;
  // the labels and the game's decisions in the table's language, from the daemon (GET /api/words)
  var W = {}, ACTIONS = {};
  var SUITS = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function cap(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : ""; }
  function word(action) { return ACTIONS[action] || action.replace(/_/g, " ").replace(/^./, function (c) { return c.toUpperCase(); }); }
  // a label with its places filled in: tr("box", {box: 3}) -> "Box 3"
  function tr(key, values) {
    var text = W[key] || key;
    return text.replace(/\{([a-z_]+)\}/g, function (m, name) { return values && name in values ? String(values[name]) : m; });
  }
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
      .catch(function () { busy = false; toast(tr("no_answer"), true); return null; });
  }
  function money(minor) {
    var m = state.minor_unit || 1, sign = minor < 0 ? "-" : "";
    minor = Math.abs(minor);
    if (m <= 1) return sign + String(minor);
    var digits = String(m - 1).length, whole = Math.floor(minor / m), part = String(minor % m);
    while (part.length < digits) part = "0" + part;
    return sign + whole + "." + part;
  }

  // -- the bar

  function bar(s) {
    document.getElementById("game").textContent = s.game_name + " " + s.variant.toUpperCase() + " · " + s.table;
    document.getElementById("round").textContent = tr("round", {number: s.round});
    document.getElementById("user").textContent = s.user ? s.user.name + " (" + tr(s.user.role) + ")" : "";
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
    if (s.layout && s.layout.dealer) {
      var dealer = el("div", "dealer-row");
      dealer.appendChild(el("span", "label", tr("dealer")));
      dealer.appendChild(cards(s.layout.dealer.cards));
      if (s.layout.dealer.total !== undefined) dealer.appendChild(el("span", "total", String(s.layout.dealer.total)));
      panel.appendChild(dealer);
    }
    ((s.layout && s.layout.boards) || []).forEach(function (board, i, all) {  // the poker room's board(s), face up
      var row = el("div", "dealer-row board-row");
      row.setAttribute("data-board", i + 1);
      row.appendChild(el("span", "label", all.length > 1 ? tr("boards", {number: i + 1}) : tr("board")));
      row.appendChild(cards(board));
      panel.appendChild(row);
    });
    var boxes = el("div", "boxes");
    var bets = {};
    s.bets.forEach(function (b) { bets[b.seat] = b.bets; });
    var turn = s.legal.decisions.length ? s.legal.decisions[0].seat : s.prompt.seat;
    var drawn = ((s.layout && s.layout.boxes) || []).slice();
    var seats = drawn.map(function (b) { return b.seat; });
    s.bets.forEach(function (b) { if (seats.indexOf(b.seat) < 0) { seats.push(b.seat); drawn.push({seat: b.seat, hands: []}); } });
    drawn.sort(function (a, b) { return a.seat - b.seat; });
    drawn.forEach(function (b) {
      if (seen[b.seat]) return;
      seen[b.seat] = true;
      var box = el("div", "box" + (b.seat === turn ? " turn" : ""));
      box.setAttribute("data-seat", b.seat);
      var head = el("div", "head");
      head.appendChild(el("b", null, b.player ? tr("box_player", {box: b.seat, player: b.player}) : tr("box", {box: b.seat})));
      if (b.button) head.appendChild(el("span", "dealer-button", "D")).title = tr("button");
      if (b.insured) head.appendChild(el("span", null, tr("insured")));
      box.appendChild(head);
      var list = (bets[b.seat] || []).filter(function (x) { return x.spot !== "puck" && x.spot !== "buy_in"; })
        .map(function (x) { return (x.spot_text || x.spot) + (x.amount ? " " + x.amount : "") + (x.player ? " (" + x.player + ")" : ""); });
      if (b.stack !== undefined) list.push(tr("stack", {amount: money(b.stack)}));
      if (b.bet) list.push(tr("street_bet", {amount: money(b.bet)}));
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
      row.appendChild(el("span", "label", tr("cards")));
      row.appendChild(cards(s.cards));
      panel.appendChild(row);
    }
    if (!drawn.length && !s.cards.length) panel.appendChild(el("div", "hint", s.betting_open ? tr("bets_open") : ""));
    return panel;
  }

  function decisionsPanel(s) {
    var panel = el("div", "panel");
    panel.appendChild(el("h3", null, tr("decisions")));
    var grid = el("div", "decisions");
    grid.id = "decisions";
    var keys = {};
    (s.keypad || []).forEach(function (k) { keys[k.seat + ":" + k.action] = k.key; });
    var seat = null;
    s.legal.decisions.forEach(function (d) {
      if (d.seat !== seat) { seat = d.seat; grid.appendChild(el("div", "seat", tr("box", {box: d.seat}))); }
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
        pickBtn.appendChild(el("small", null, tr("choose_cards")));
        pickBtn.setAttribute("data-cards-for", d.action); pickBtn.setAttribute("data-seat", d.seat);
        pickBtn.addEventListener("click", function () { cardPad(d); });
        grid.appendChild(pickBtn);
      }
      if (d.amount && (d.least === undefined || d.least < d.most)) {
        var a = el("button", "btn small " + d.action, word(d.action) + " …");
        a.appendChild(el("small", null, tr("another_amount")));
        a.setAttribute("data-amount-for", d.action); a.setAttribute("data-seat", d.seat);
        a.addEventListener("click", function () { amountPad(d); });
        grid.appendChild(a);
      }
    });
    if (!s.legal.decisions.length) {
      var hint = s.legal.expects.indexOf("card") >= 0 ? tr("deal_from_shoe", {prompt: s.prompt.text})
        : s.complete ? tr("round_settled") : tr("no_decision");
      grid.appendChild(el("div", "hint wide", hint));
    }
    panel.appendChild(grid);
    return panel;
  }

  function amountPad(d) {
    // the amount as the croupier types it in the currency: whole units, or units and the currency's decimals
    // (20.50); sent as typed, the daemon reads it as a decimal string and refuses it in words if it is no amount
    var entry = "", m = state.minor_unit || 1, decimals = m > 1 ? String(m - 1).length : 0;
    var sheet = document.getElementById("sheet");
    sheet.innerHTML = "";
    var head = d.least !== undefined ? tr("amount_span", {action: word(d.action), box: d.seat, currency: state.currency,
      least: money(d.least), most: money(d.most)}) : tr("amount_head", {action: word(d.action), box: d.seat, currency: state.currency});
    sheet.appendChild(el("h3", null, head));
    if ((state.chip_unit || 1) > 1) sheet.appendChild(el("div", "hint", tr("amount_unit", {unit: money(state.chip_unit)})));
    var shown = el("div", "entry", "0");
    shown.id = "amount-entry";
    sheet.appendChild(shown);
    var pad = el("div", "pad");
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", decimals ? "." : "", "0", "\u232b", "Cancel", "", "OK"].forEach(function (k) {
      if (k === "") { pad.appendChild(el("span")); return; }
      var b = el("button", k === "OK" ? "ok" : k === "Cancel" ? "cancel" : "", k === "OK" ? tr("ok") : k === "Cancel" ? tr("cancel") : k);
      b.setAttribute("data-key", k === "\u232b" ? "back" : k);
      b.addEventListener("click", function () {
        if (k === "Cancel") return close();
        if (k === "OK") {
          close();
          if (entry !== "") post("/api/act", {seat: d.seat, action: d.action, amount_text: entry, player: d.player});
          return;
        }
        if (k === "\u232b") entry = entry.slice(0, -1);
        else if (k === ".") { if (entry.indexOf(".") < 0) entry = (entry || "0") + "."; }
        else if (entry.indexOf(".") >= 0 ? entry.length - entry.indexOf(".") <= decimals : entry.length < 7) {
          entry = (entry + k).replace(/^0+(?=\d)/, "");
        }
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
    var count = c.least === c.most ? String(c.least) : tr("cards_span", {least: c.least, most: c.most});
    sheet.appendChild(el("h3", null, tr("cards_head", {action: word(d.action), box: d.seat, count: count})));
    if (c.order) sheet.appendChild(el("div", "hint", tr("in_order", {order: c.order})));
    var row = el("div", "pick");
    var ok = el("button", "ok", tr("ok"));
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
    var cancel = el("button", "cancel", tr("cancel"));
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
    panel.appendChild(el("h3", null, tr("camera_unsure")));
    panel.appendChild(el("div", "hint", p.reason));
    if (p.kind === "wheel") {
      var guess = p.values[0];
      var ok = el("button", "btn confirm", guess === null || guess === undefined ? tr("enter_number") : tr("confirm", {value: guess}));
      ok.id = "confirm";
      ok.addEventListener("click", function () {
        if (guess === null || guess === undefined) return numberPad();
        post("/api/confirm", {});
      });
      panel.appendChild(ok);
      if (guess !== null && guess !== undefined) {
        var other = el("button", "btn small", tr("another_number"));
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
      var okd = el("button", "btn confirm", whole ? tr("confirm", {value: pick.values.join(" ")}) : tr("tap_every_die"));
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
    sheet.appendChild(el("h3", null, tr("winning_number")));
    var shown = el("div", "entry", "");
    sheet.appendChild(shown);
    var pad = el("div", "pad");
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "Cancel", "0", "OK"].forEach(function (k) {
      var b = el("button", k === "OK" ? "ok" : k === "Cancel" ? "cancel" : "", k === "OK" ? tr("ok") : k === "Cancel" ? tr("cancel") : k);
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
    panel.appendChild(el("h3", null, tr("table")));
    if (s.legal.close_bets) {
      var nmb = el("button", "btn nomore", s.betting_open ? tr("no_more_bets")
        : s.legal.expects.indexOf("insurance") >= 0 ? tr("no_more_insurance") : tr("close"));
      nmb.id = "close-bets";
      nmb.addEventListener("click", function () { post("/api/close_bets"); });
      panel.appendChild(nmb);
    }
    if (s.legal.void) {
      var v = el("button", "btn void" + (voidArmed > Date.now() ? " armed" : ""), voidArmed > Date.now() ? tr("void_again") : tr("void"));
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
    panel.appendChild(el("h3", null, tr("faults")));
    s.faults.forEach(function (f) {
      var row = el("div", "fault");
      var text = el("div");
      text.appendChild(el("b", null, f.name));
      text.appendChild(el("div", null, f.text));
      row.appendChild(text);
      // who clears it is the fault table's word (clear_by: supervisor, technician, or none but a restart)
      var role = s.user ? s.user.role : "";
      if (f.clear_by && (role === "supervisor" || role === f.clear_by)) {
        var b = el("button", "btn", tr("clear"));
        b.setAttribute("data-fault", f.name);
        b.addEventListener("click", function () { post("/api/clear_fault", {name: f.name}); });
        row.appendChild(b);
      } else {
        row.appendChild(el("span", "hint", tr(!f.clear_by ? "restart_clears" : f.clear_by === "supervisor"
          ? "supervisor_clears" : "staff_clears")));
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
    if (!s.accepting) prompt.appendChild(el("small", null, tr("stopped", {faults: s.faults.map(function (f) { return f.text; }).join("; ")})));
    else if (s.pending) prompt.appendChild(el("small", null, s.prompt.text));
    left.appendChild(prompt);
    left.appendChild(layoutPanel(s));
    if (s.rejects.length) left.appendChild(el("div", "rejects", tr("refused", {reason: s.rejects[s.rejects.length - 1].reason})));
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
      box.appendChild(el("h3", null, tr("round", {number: s.round})));
      box.appendChild(layoutPanel(s));
      return box;
    }
    if (!b.rounds) { box.appendChild(el("div", "empty-board", tr("no_results"))); return box; }
    if (b.kind === "numbers") {
      box.appendChild(el("h3", null, tr("last_numbers")));
      var strip = el("div", "numbers");
      b.last.slice(0, window.innerWidth >= 1200 ? 30 : 18).forEach(function (m, i) { strip.appendChild(numberBall(m, i === 0)); });
      box.appendChild(strip);
      var hc = el("div", "hotcold");
      ["hot", "cold"].forEach(function (kind) {
        var col = el("div", kind);
        col.appendChild(el("h4", null, tr(kind, {count: b.rounds})));
        var row = el("div", "numbers");
        b[kind].forEach(function (h) {
          var ball = el("span", "num " + (h.color || "black"), String(h.number));
          ball.appendChild(el("sup", null, String(h.count)));
          row.appendChild(ball);
        });
        col.appendChild(row);
        hc.appendChild(col);
      });
      box.appendChild(hc);
    } else if (b.kind === "dice") {
      box.appendChild(el("h3", null, tr("last_throws")));
      var list = el("div", "throws");
      b.last.slice(0, window.innerWidth >= 1200 ? 11 : 9).forEach(function (m, i) {
        var row = el("div", "throw" + (i === 0 ? " first" : ""));
        m.dice.forEach(function (v, j) { row.appendChild(el("span", "die " + ((m.colors && m.colors[j]) || ""), String(v))); });
        row.appendChild(el("span", "tot", m.number !== undefined ? String(m.number) : String(m.total)));
        if (m.number !== undefined) row.appendChild(el("span", "tag", tr("sum", {total: m.total})));
        if (m.triple) row.appendChild(el("span", "tag", tr("triple")));
        else if (m.big) row.appendChild(el("span", "tag", tr("big")));
        else if (m.small) row.appendChild(el("span", "tag", tr("small")));
        list.appendChild(row);
      });
      box.appendChild(list);
    } else if (b.kind === "road") {
      var rb = el("div", "roadbox");
      rb.appendChild(el("h4", null, tr("big_road")));
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
      rb.appendChild(el("h4", null, tr("bead_plate")));
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
      ["punto", "banco", "tie"].forEach(function (p) {
        var c = el("span", null, tr(p) + " ");
        c.appendChild(el("b", null, String(b.counts[p] || 0)));
        counts.appendChild(c);
      });
      rb.appendChild(counts);
      box.appendChild(rb);
    }
    return box;
  }

  var TALLY = [  // [the board's tally, its value, the label's word]
    [["color", "red", "red"], ["color", "black", "black"], ["color", "green", "zero"]],
    [["parity", "odd", "odd"], ["parity", "even", "even"], ["half", "low", "1-18"], ["half", "high", "19-36"]],
    [["dozen", "1", "dozen_1"], ["dozen", "2", "dozen_2"], ["dozen", "3", "dozen_3"]],
    [["big", "true", "big_cell"], ["small", "true", "small_cell"], ["triple", "true", "triple_cell"]],
    [["below_above", "below", "below_7"], ["below_above", "seven", "seven"], ["below_above", "above", "above_7"]]];

  function tallyPanel(b) {
    var panel = el("div", "panel tally");
    panel.appendChild(el("h3", null, tr(b.kind === "dice" ? "tally_throws" : "tally_spins", {count: b.rounds})));
    TALLY.forEach(function (cells) {
      if (!cells.some(function (c) { return b.tally[c[0]]; })) return;
      var row = el("div", "tally-row");
      cells.forEach(function (c) {
        var n = (b.tally[c[0]] || {})[c[1]] || 0, pct = Math.round(100 * n / b.rounds);
        var cell = el("div", "tally-cell " + c[0] + "-" + c[1]);
        cell.appendChild(el("span", "t", tr(c[2])));
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
    if (!s.last_settlements.length && !s.last_outcome) { div.textContent = tr("no_round"); return div; }
    s.last_settlements.slice(0, 10).forEach(function (x) {
      var line = el("div", x.result === "win" ? "win" : x.result === "lose" ? "lose" : "");
      var what = {box: x.seat, spot: x.spot_text || x.spot, hand: x.hand, result: x.result_text || x.result};
      line.textContent = tr(x.hand ? "settled_hand" : "settled", what) +
        (x.net !== undefined ? " (" + (x.net > 0 ? "+" : "") + money(x.net) + ")" : "");
      div.appendChild(line);
    });
    return div;
  }

  function pit(s) {
    var main = el("main", "pit");
    var stats = el("div", "stats");
    var st = !s.accepting ? "state_stopped" : s.faults.length ? "state_fault" : s.pending ? "state_pending" :
      s.betting_open ? "state_open" : s.complete ? "state_settled" : "state_play";
    stats.appendChild(stat(tr("state"), tr(st), "state" + (s.faults.length ? " bad" : "")));
    stats.appendChild(stat(tr("round_label"), String(s.round)));
    stats.appendChild(stat(tr("hands_hour"), String(s.hands_per_hour)));
    stats.appendChild(stat(tr("faults"), String(s.faults.length), s.faults.length ? "bad" : ""));
    stats.appendChild(stat(tr("journal"), "#" + s.seq));
    main.appendChild(stats);
    main.appendChild(board(s));
    var side = el("div", "side");
    var now = el("div", "panel");
    now.appendChild(el("h3", null, tr("now")));
    var p = el("div", "lastres", cap(s.pending ? s.pending.prompt : s.prompt.text));
    p.id = "pit-prompt";
    now.appendChild(p);
    side.appendChild(now);
    if (s.board && s.board.tally && s.board.rounds) side.appendChild(tallyPanel(s.board));
    var meters = Object.keys(s.meters || {});
    if (meters.length) {
      var mp = el("div", "panel");
      mp.appendChild(el("h3", null, tr("meters", {currency: s.currency})));
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
      lr.appendChild(el("h3", null, tr("last_round")));
      lr.appendChild(lastResult(s));
      side.appendChild(lr);
    }
    if (s.limits && s.limits.length) {
      var lp = el("div", "panel limits");
      lp.appendChild(el("h3", null, tr("limits", {currency: s.currency})));
      s.limits.slice(0, 8).forEach(function (l) {
        var row = el("div", "limit");
        row.appendChild(el("span", null, l.spot_text || l.spot));
        row.appendChild(el("b", null, l.min + " – " + (l.max === null ? tr("no_maximum") : l.max)));
        lp.appendChild(row);
      });
      side.appendChild(lp);
    }
    if (s.faults.length) {
      var fp = el("div", "panel");
      fp.appendChild(el("h3", null, tr("faults")));
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
    source.onopen = function () { link.textContent = tr("live"); link.className = "link"; };
    source.onmessage = function (e) {
      state = JSON.parse(e.data);
      window.tablectlSeen = {seq: state.seq, version: state.version, at: performance.now()};
      render();
    };
    source.onerror = function () {
      link.textContent = tr("reconnecting"); link.className = "link down";
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
  function start(words) {
    W = words.words || {}; ACTIONS = words.actions || {};
    document.documentElement.lang = words.lang || "en";
    document.title = "tablectl · " + tr(PIT ? "pit_title" : "dealer_title");
    document.getElementById("logout").textContent = tr("logout");
    connect();
  }
  // the words first (one request); a page that cannot get them (the daemon restarting) shows English and goes on
  fetch("/api/words").then(function (r) { return r.json(); }).then(start, function () { start({}); });
})();
