/**
 * The bottom draggable panel of the map (SPEC 4): opens at 200 px, dragged by its handle in steps
 * of 15 px, settles at 200 px or full height; a tap on the handle switches between the two.
 * What it holds can expand it (an input tapped at 200 px would sit under the keyboard) and scroll
 * an element into view by id (a note just saved), through PanelContext.
 */
import { Close } from '@nutui/icons-react-taro'
import { ScrollView, View } from '@tarojs/components'
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { PANEL_INITIAL_HEIGHT } from '../../domain/constants'
import { draggedHeight, settledHeight, toggledHeight } from '../../domain/panel'
import { useStores } from '../../stores/context'
import './index.scss'

export interface DraggablePanelProps {
  visible: boolean
  onClose: () => void
  className?: string
  children?: ReactNode
}

export interface PanelControls {
  /** Opens the panel to full height. */
  expand: () => void
  /** Scrolls the element with this id into view inside the panel. */
  reveal: (elementId: string) => void
}

const PanelContext = createContext<PanelControls>({ expand: () => undefined, reveal: () => undefined })

export const usePanel = (): PanelControls => useContext(PanelContext)

/** Full height leaves the map's top bar in sight. */
function fullHeight(windowHeight: number): number {
  return Math.max(PANEL_INITIAL_HEIGHT, Math.round(windowHeight * 0.88))
}

export function DraggablePanel({ visible, onClose, className, children }: DraggablePanelProps) {
  const { platform } = useStores()
  const [height, setHeight] = useState(PANEL_INITIAL_HEIGHT)
  const drag = useRef<{ y: number; h: number; moved: boolean } | null>(null)

  // ScrollView scrolls when its scrollIntoView prop changes: cleared first, so that the same id scrolls again.
  const [revealId, setRevealId] = useState('')

  useEffect(() => {
    if (visible) setHeight(PANEL_INITIAL_HEIGHT)
  }, [visible])

  const full = fullHeight(platform.screen.windowHeight())
  const controls = useMemo<PanelControls>(
    () => ({
      expand: () => setHeight(full),
      reveal: (id) => {
        setRevealId('')
        setTimeout(() => setRevealId(id), 0)
      },
    }),
    [full],
  )

  if (!visible) return null
  // Taro types its touch events as the base event; the touch (or, in a desktop browser, mouse) fields are read as they come.
  const y = (event: object) => {
    const e = event as { touches?: ArrayLike<{ clientY: number }>; changedTouches?: ArrayLike<{ clientY: number }>; clientY?: number }
    return e.touches?.[0]?.clientY ?? e.changedTouches?.[0]?.clientY ?? e.clientY ?? 0
  }

  return (
    <View className={`draggable-panel ${className ?? ''}`} style={{ height: `${height}px` }}>
      <View
        className='draggable-panel__handle'
        onTouchStart={(e) => (drag.current = { y: y(e), h: height, moved: false })}
        onTouchMove={(e) => {
          const d = drag.current
          if (!d) return
          d.moved = true
          setHeight(draggedHeight(d.h, d.y - y(e), full))
        }}
        onTouchEnd={() => {
          const d = drag.current
          drag.current = null
          setHeight((h) => (d?.moved ? settledHeight(h, full) : h))
        }}
        onClick={() => setHeight((h) => toggledHeight(h, full))}
      >
        <View className='draggable-panel__bar' />
      </View>
      <View className='draggable-panel__close' onClick={onClose}>
        <Close size={16} color='#86909C' />
      </View>
      <ScrollView scrollY scrollWithAnimation scrollIntoView={revealId || undefined} className='draggable-panel__content'>
        <PanelContext.Provider value={controls}>{children}</PanelContext.Provider>
      </ScrollView>
    </View>
  )
}
