// Package draw turns a quorum system into a picture: the incidence matrix
// of any system, Maekawa's grid as rows and columns, the billiard board of
// Agrawal, Eğecioğlu and El Abbadi with each quorum's broken path (their
// Fig. 6), projective planes (the Fano plane as the classic triangle with
// its inscribed circle, larger planes on a circle), and the (k+1)-cube of
// a k-arbiter as its lattice for k ≤ 2 (node 1 top left, as in the grid),
// the tree system as its tree, hierarchical quorum consensus as nested
// groups, crumbling walls, the triangle and the wheel as their rows,
// threshold systems as their nodes on a circle, and Kuo's join as the
// outer system with the joined node expanded into the inner one.
//
// Every node carries its number (inside its circle when it fits, just
// outside a ring of more than 60 nodes) and a tooltip; labels asked for
// are placed where they cover no node and no other text (and, where they
// can, cross no line), and the canvas grows to hold them, the caption and
// the legend that tells the chosen quorum (blue) from highlighted nodes
// (red). Lines and paths take the Okabe–Ito colours and, once those run
// out, a dash pattern each. Two themes, light and dark, set every colour;
// PNG is twice the scene's size unless asked otherwise.
//
// Failure domains ([Options.Domains]) are drawn over any layout: a
// labelled box per domain around its nodes, nested like the tree, when the
// layout keeps each domain's nodes apart from the others'; otherwise a
// coloured ring per level around each node, named in the legend; bars
// beside the rows of the matrix. Failed nodes and domains ([Options.Down])
// are grey, as is every shape of a quorum that holds a failed node, and
// the legend counts the survivors. The layout a construction is drawn by
// comes from its [quorum.Drawer] capability ([construct.Drawn]), not from
// its kind's name.
//
// [Draw] builds a [Scene], a list of shapes in a fixed coordinate system;
// the scene is then written as SVG by a deterministic writer
// ([Scene.WriteSVG]), or rasterised to PNG and PDF through gonum's vg
// backends ([Scene.WritePNG], [Scene.WritePDF]). The same system and
// options always give the same bytes.
//
// [Chart] is the one line chart of the module: the availability curves
// (AV(p), or 1 − AV(p) on a log axis), the optimal load of read-write
// systems against the read fraction and the simulator's messages per entry
// are all Charts, written as SVG or PNG through gonum's plot.
//
// Nodes are numbered 1..n in every label and attribute a user sees;
// [Options] takes them 0-based, as the rest of the library does.
package draw
